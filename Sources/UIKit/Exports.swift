// `import UIKit` brings in the layer module and Foundation, as Apple's does.
@_exported import Foundation
@_exported import QuartzCore
