"""Synthetic table frames: a game state or scene rendered through a virtual camera, with ground truth.

Tests, the bench and the demo's synthetic camera all draw their frames here, so every claim about
accuracy is made on frames whose truth is known exactly.
"""

from vision.synth.camera import CameraPose, VirtualCamera, random_pose
from vision.synth.effects import Conditions, Hand, random_conditions
from vision.synth.render import Renderer, SynthFrame, TruthUnit, view_maps
from vision.synth.scene import Placement, Scene, random_scene, scene_from_state

__all__ = ["CameraPose", "VirtualCamera", "random_pose", "Conditions", "Hand", "random_conditions", "Renderer",
           "SynthFrame", "TruthUnit", "view_maps", "Placement", "Scene", "random_scene", "scene_from_state"]
