"""What the user gives: the files panel, the roles and scores dialogs, the settings."""
