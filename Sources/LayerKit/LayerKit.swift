// `import LayerKit` brings the model and the contract it flattens to: LayerKitRender's RenderList,
// Renderer, Image, Color and errors are part of the model's API (docs/ARCHITECTURE.md, "Modules").
@_exported import LayerKitRender
