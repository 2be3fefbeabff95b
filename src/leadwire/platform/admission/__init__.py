"""leadwire.platform.admission"""
