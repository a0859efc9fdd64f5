"""The main window and what frames it: menus, the welcome page, help, the remembered state."""
