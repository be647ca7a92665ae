"""The table service: one process from camera to LEDs, made of supervised components around one game session.

`session` is the one writer of the live game (durable in `store`, the SQLite game log); `config` reads
table.toml; `components` and `supervisor` run the parts so that one failing never stops the others; `buttons`
and `led_output` are the table's physical inputs and outputs; `systemd` tells systemd the service is ready and
alive. See docs/service.md.
"""
