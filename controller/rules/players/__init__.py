"""The players' turn: its steps, AP and dice, moves, strikes, keypads, terminals, the burncycle, upgrades, power
and the network step."""
