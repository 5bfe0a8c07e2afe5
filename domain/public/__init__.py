"""Public pages and paper (contract §10, §15, §21, §9a): outputs, the event page, players' own links and mail, print
views."""
