"""The special characters: Interface's disguise, Memory's drone Joan, agents' proprietary dice."""
