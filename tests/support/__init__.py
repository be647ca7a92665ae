"""What the tests share: scenarios, the command-line runner, the service, MQTT, firmware and vision helpers, one
free_port and one wait_for. Nothing here is a test; test modules import from here, never from each other."""
