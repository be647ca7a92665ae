"""LEDs on the Pi's own pins through gpiozero: an APA102/SK9822 strip, or discrete LEDs.

APA102 and SK9822 take a clock and a data line (SPI), so unlike WS2812 they need no exact timing
and no microcontroller. The minimal build uses plain LEDs: a bar of PWMLEDs for the threat track,
one RGBLED per burncycle slot and one PWMLED for the link status. Both go through gpiozero's pin
factory, so the tests run them on gpiozero's MockFactory.
"""

from __future__ import annotations

from typing import Any

from gpiozero import PWMLED, RGBLED, DeviceClosed, GPIOZeroError, LEDBoard, SPIDevice

from controller.leds.render import RGB, LogicalFrame
from controller.leds.strip_layout import Layout
from controller.rules.errors import BurncycleError


class GpioConfigError(BurncycleError):
    """A [gpio] section of an LED layout that does not describe wiring gpiozero can drive."""

    code = "gpio_config"

APA102_FULL = 0xE0 | 31  # LED frame header: global brightness at maximum (the layout dims)


def apa102_bytes(layout: Layout, pixels: list[RGB]) -> bytes:
    """Start frame, one 4-byte frame per LED (each strip in its colour order, usually BGR), the
    SK9822 reset frame, then enough clock edges for the data to reach the last LED."""
    out = bytearray(4)
    for strip in layout.strips:
        order = ["RGB".index(c) for c in strip.color_order]
        for pixel in pixels[strip.offset : strip.offset + strip.leds]:
            out.append(APA102_FULL)
            out.extend(pixel[i] for i in order)
    out.extend(bytes(4))
    out.extend(bytes((len(pixels) + 15) // 16))
    return bytes(out)


class _SpiBus(SPIDevice):
    """gpiozero's SPI device with a plain write: the strip only listens."""

    def write(self, data: bytes) -> None:
        spi = self._spi
        if spi is None:  # gpiozero lets its bus go on close
            raise DeviceClosed("the LED strip's SPI bus is closed: a frame was sent after the LEDs were shut down")
        spi.write(data)


class Apa102Strip:
    """An APA102/SK9822 chain on the SPI pins, mapped and budgeted by the layout."""

    def __init__(self, layout: Layout, *, clock_pin: int = 11, data_pin: int = 10, select_pin: int = 8) -> None:
        self.layout = layout
        # The strip has no chip select; gpiozero's SPI wants one, so it gets a pin left unwired.
        self._bus = _SpiBus(clock_pin=clock_pin, mosi_pin=data_pin, miso_pin=None, select_pin=select_pin)

    def show(self, frame: LogicalFrame) -> None:
        self._bus.write(apa102_bytes(self.layout, self.layout.physical(frame)))

    def close(self) -> None:
        self._bus.close()


class DiscreteLeds:
    """The minimal build: a PWMLED bar for the threat track, RGBLEDs for the slots, a status LED.

    The bar has fewer LEDs than the track has positions; each bar LED covers an equal share of the
    positions and shows the brightest of them.
    """

    def __init__(self, threat_pins: list[int], slot_pins: list[list[int]], status_pin: int | None) -> None:
        self.bar = LEDBoard(*threat_pins, pwm=True)
        self.slots = [RGBLED(*pins) for pins in slot_pins]
        self.status = PWMLED(status_pin) if status_pin is not None else None

    def show(self, frame: LogicalFrame) -> None:
        n = len(self.bar)
        track = frame.threat
        values = []
        for i in range(n):
            share = track[i * len(track) // n : (i + 1) * len(track) // n]
            values.append(max(max(c) for c in share) / 255)
        self.bar.value = tuple(values)
        for led, colour in zip(self.slots, frame.slots):
            led.color = (colour[0] / 255, colour[1] / 255, colour[2] / 255)
        if self.status is not None:
            self.status.value = max(frame.status) / 255

    def close(self) -> None:
        self.bar.close()
        for led in self.slots:
            led.close()
        if self.status is not None:
            self.status.close()


def from_layout(layout: Layout) -> Apa102Strip | DiscreteLeds:
    """The GPIO output the layout's [gpio] table describes."""
    cfg: dict[str, Any] = layout.gpio
    kind = cfg.get("kind")
    where = f"{layout.source}: [gpio]"
    try:
        if kind == "apa102":
            return Apa102Strip(
                layout,
                clock_pin=int(cfg.get("clock_pin", 11)),
                data_pin=int(cfg.get("data_pin", 10)),
                select_pin=int(cfg.get("select_pin", 8)),
            )
        if kind == "discrete":
            threat = [int(x) for x in cfg["threat_pins"]]
            slots = [[int(x) for x in rgb] for rgb in cfg.get("slot_pins", [])]
            if not threat or len(slots) > 5 or any(len(rgb) != 3 for rgb in slots):
                raise GpioConfigError(f"{where}: needs threat_pins, and up to 5 slot_pins of [red, green, blue]")
            status = cfg.get("status_pin")
            return DiscreteLeds(threat, slots, None if status is None else int(status))
    except KeyError as err:
        raise GpioConfigError(f"{where}: field {err} is missing") from None
    except (TypeError, ValueError, GPIOZeroError) as err:
        raise GpioConfigError(f"{where}: {err}") from None
    raise GpioConfigError(f"{where}: kind must be \"apa102\" or \"discrete\", got {kind!r}")
