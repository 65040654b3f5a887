import LayerKit
