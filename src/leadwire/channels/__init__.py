"""leadwire.channels"""
