// `import UIKit` brings in Core Animation, Core Graphics and Foundation, as
// Apple's does.
@_exported import Foundation
@_exported import CoreGraphics
@_exported import QuartzCore
// The Clang module of the same name (Sources/UIKitClangModule): its
// submodules make `import UIKit.UIGestureRecognizerSubclass` compile.
@_exported import UIKit
