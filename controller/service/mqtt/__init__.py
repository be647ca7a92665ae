"""MQTT: the bridge between the session and the broker, its client, the topic names, Home Assistant discovery."""
