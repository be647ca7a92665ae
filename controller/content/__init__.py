"""The content shipped with burncycle-table: floors, guards, captains, the network mat, threat cards,
missions and bot cards, as data files read by controller.rules.content."""
