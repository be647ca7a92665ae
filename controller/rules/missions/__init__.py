"""Missions: objectives, special rules, the draw bag, the hop into cyberspace, changing floors and escape."""
