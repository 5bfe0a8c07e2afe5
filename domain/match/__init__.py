"""A match and its scoring (contract §9, §17-§19): the lifecycle, formats, points, scorer links, results."""
