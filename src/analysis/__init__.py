"""analysis: the pandas layer of trickcore (odds, payouts, balance, reports, CLI)."""
