"""What holds the service together: its config, its components and their supervisor, start-up, systemd's
notifications, the web server and the address phones open."""
