"""The main window and what frames it: menus, the welcome page, dialogs, help, state."""
