"""The hall: every table on one MQTT broker, on one page (`burncycle-table hall`, docs/mqtt.md).

A convention runs many tables on one broker; the hall is a separate small process that reads only the
tables' retained state topics (`<base>/+/mission`, `threat`, `phase`, ..., `availability`), so it needs no
table to know about it and sees a table the moment it publishes, or the broker's last will when it dies.
`view.py` keeps the picture, `subscriber.py` fills it from the broker; the page is web/hall.py.
"""
