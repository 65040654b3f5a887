// The video wing's modules, for a program that imports LayerKitVideo: the edit and its readers,
// the output, the timeline.
@_exported import LayerKitEdit
@_exported import LayerKitOutput
@_exported import LayerKitTimeline
