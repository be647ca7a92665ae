"""The table service: one process from camera to LEDs, made of supervised components around one game session.

`table.TableService` is the one way in (the web, MQTT, the buttons and the demo call it). The rooms:
`game/` (the session, the one writer of the live game, durable in its SQLite `store`), `camera/` (the camera
component, the reconciler and the bot ways it searches, the table view, door sensors), `mqtt/` (bridge,
client, topics, Home Assistant discovery), `devices/` (buttons and buzzer, LED output), `demo/` (the demo's
booth and simulated board), `frame/` (config, components and their supervisor, start-up, systemd, the web
server, the address). See docs/service.md and docs/architecture.md.
"""
