// And Foundation, as `import UIKit` and `import QuartzCore` bring it to Core Animation code: a
// porter who writes `import LayerKit` in their place keeps CGRect, CGFloat, CGPoint, NSNumber,
// NSCoder and Date as written.
@_exported import Foundation
// `import LayerKit` brings the model and the contract it flattens to: LayerKitRender's RenderList,
// Renderer, Image, Color and errors are part of the model's API (docs/ARCHITECTURE.md, "Modules").
@_exported import LayerKitRender
