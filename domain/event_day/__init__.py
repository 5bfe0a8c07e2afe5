"""The event day (contract §9, §11, §14): who may start, the court board, estimates, people and check-in, the
operator's schedule, sign-up."""
