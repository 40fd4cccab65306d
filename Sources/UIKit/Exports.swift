// `import UIKit` brings in Core Animation, Core Graphics and Foundation, as
// Apple's does.
@_exported import Foundation
@_exported import CoreGraphics
@_exported import QuartzCore
