print("layerkit")
