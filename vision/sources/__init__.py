"""Camera sources behind one interface: Pi camera, OpenCV capture (USB, file, stream), image folder, synthetic."""

from vision.sources.base import Frame, FrameSource
from vision.sources.capture import VideoCaptureSource
from vision.sources.folder import ImageFolderSource
from vision.sources.picamera import PiCameraSource
from vision.sources.synthetic import SyntheticSource

__all__ = ["Frame", "FrameSource", "VideoCaptureSource", "ImageFolderSource", "PiCameraSource", "SyntheticSource"]
