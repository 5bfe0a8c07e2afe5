"""A partner's resources (contract §3-§8, §23): broadcasts and courts, tables, rosters, player lists, court queues,
cancellations and idempotent creates."""
