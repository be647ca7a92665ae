"""Cards: what bots carry (inventory), equipment, mods, imperatives, network cards and the effects cards share."""
