"""Access and accountability (contract §1, §8a, §16): accounts and keys, OAuth, rate limits, the audit log."""
