"""leadwire.platform.http.creation"""
