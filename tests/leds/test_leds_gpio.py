"""The GPIO outputs on gpiozero's MockFactory: the bytes on the SPI pins, the PWM values."""

from __future__ import annotations

import copy

import pytest
from gpiozero import Device, DeviceClosed
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin, MockSPIDevice

from controller.leds import strip_layout as layouts
from controller.leds.gpio import Apa102Strip, DiscreteLeds, GpioConfigError, apa102_bytes, from_layout
from controller.leds.render import LogicalFrame, render
from controller.leds.scene import LedScene, SlotChip


def _factory(pin_class):
    previous = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=pin_class)
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = previous


@pytest.fixture
def mock_pins():
    """Mock pins with PWM, as the Pi has on every GPIO (LEDBoard(pwm=True), RGBLED, PWMLED)."""
    yield from _factory(MockPWMPin)


@pytest.fixture
def mock_spi_pins():
    """Plain mock pins, which gpiozero's mock SPI clock and select pins must match."""
    yield from _factory(MockPin)


class StripOnTheWire(MockSPIDevice):
    """The receiving end of the SPI lines: collects every bit the Pi clocks out."""

    def bytes(self) -> bytes:
        bits = self.rx_buf
        return bytes(int("".join(str(int(b)) for b in bits[i : i + 8]), 2) for i in range(0, len(bits) - 7, 8))


def apa102_layout() -> layouts.Layout:
    data = copy.deepcopy(layouts.DEFAULT)
    data["strip"][0]["color_order"] = "BGR"
    data["strip"][1]["color_order"] = "BGR"
    data["gpio"] = {"kind": "apa102", "clock_pin": 11, "data_pin": 10, "select_pin": 8}
    return layouts.build(data)


SCENE = LedScene(threat=4, slots=(SlotChip("tech"), SlotChip("physical", True), None, None, SlotChip("captain")),
                 tracker=4)


def test_apa102_strip_gets_the_rendered_frame(mock_spi_pins) -> None:
    layout = apa102_layout()
    wire = StripOnTheWire(clock_pin=11, mosi_pin=10, select_pin=8)
    strip = from_layout(layout)
    assert isinstance(strip, Apa102Strip)
    frame = render(SCENE, 0.0)
    strip.show(frame)
    strip.close()
    got = wire.bytes()
    pixels = layout.physical(frame)
    assert got == apa102_bytes(layout, pixels)
    assert got[:4] == bytes(4)
    led0 = got[4:8]
    assert led0[0] == 0xFF and tuple(led0[1:]) == pixels[0][::-1]  # header, then blue, green, red


def test_a_frame_for_a_closed_strip_says_the_bus_is_closed(mock_spi_pins) -> None:
    """gpiozero drops its SPI bus on close: a frame sent after says so, in gpiozero's own error for it."""
    StripOnTheWire(clock_pin=11, mosi_pin=10, select_pin=8)
    strip = from_layout(apa102_layout())
    strip.close()
    with pytest.raises(DeviceClosed, match="SPI bus is closed"):
        strip.show(render(SCENE, 0.0))


def test_apa102_frame_layout() -> None:
    layout = apa102_layout()
    data = apa102_bytes(layout, [(1, 2, 3)] * layout.led_count)
    assert len(data) == 4 + 4 * 38 + 4 + 3
    assert data[4:8] == bytes((0xFF, 3, 2, 1))


def discrete_layout() -> layouts.Layout:
    data = copy.deepcopy(layouts.DEFAULT)
    data["gpio"] = {
        "kind": "discrete",
        "threat_pins": [5, 6, 13, 19, 26, 12, 16, 20, 21],
        "slot_pins": [[17, 27, 22], [23, 24, 25], [4, 18, 15], [14, 2, 3], [7, 0, 1]],
        "status_pin": 9,
    }
    return layouts.build(data)


def test_discrete_build_shows_threat_slots_and_status(mock_pins) -> None:
    leds = from_layout(discrete_layout())
    assert isinstance(leds, DiscreteLeds)
    frame = render(SCENE, 0.25)
    leds.show(frame)
    # threat 4: positions 0..4 lit, so bar LEDs 0 (0-2) and 1 (3-5) are on, the rest dark
    values = leds.bar.value
    assert values[0] > 0 and values[1] > 0 and all(v == 0 for v in values[2:])
    assert mock_pins.pin(5).state == pytest.approx(values[0])
    assert leds.slots[0].color == tuple(c / 255 for c in frame.slots[0])
    assert leds.slots[2].color == (0, 0, 0)
    assert leds.status is not None and leds.status.value == pytest.approx(max(frame.status) / 255)
    leds.close()


def test_discrete_bar_covers_the_whole_track(mock_pins) -> None:
    leds = from_layout(discrete_layout())
    leds.show(render(LedScene(threat=26), 0.0))
    assert all(v > 0 for v in leds.bar.value)
    leds.show(LogicalFrame(((0, 0, 0),) * 27, ((0, 0, 0),) * 5, (0, 0, 0)))
    assert all(v == 0 for v in leds.bar.value)
    leds.close()


@pytest.mark.parametrize(
    ("gpio", "message"),
    [
        ({}, 'kind must be "apa102" or "discrete"'),
        ({"kind": "discrete"}, "field 'threat_pins' is missing"),
        ({"kind": "discrete", "threat_pins": [5], "slot_pins": [[1, 2]]}, "slot_pins of [red, green, blue]"),
        ({"kind": "apa102", "clock_pin": "x"}, "[gpio]"),
    ],
)
def test_gpio_table_errors(mock_pins, gpio: dict, message: str) -> None:
    data = copy.deepcopy(layouts.DEFAULT)
    data["gpio"] = gpio
    with pytest.raises(GpioConfigError) as err:
        from_layout(layouts.build(data, "my.toml"))
    assert message in str(err.value) and str(err.value).startswith("my.toml: [gpio]")
