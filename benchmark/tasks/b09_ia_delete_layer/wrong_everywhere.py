layout.clear_layer(layout.layer(5, 0))
