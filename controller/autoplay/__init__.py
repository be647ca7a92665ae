"""The auto-player: a player of the agents' side, not a rule; it plays through the rules' front door."""
