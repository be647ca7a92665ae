"""The board: the floor text format, its geometry (areas, adjacency, sight lines), paths and awareness."""
