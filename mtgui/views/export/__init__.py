"""What leaves the window: the PDF report's pages and plots as images."""
