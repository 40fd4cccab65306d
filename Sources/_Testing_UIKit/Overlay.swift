// Swift Testing declares a cross-import overlay for a module named UIKit
// (`Testing.swiftcrossimport/UIKit.swiftoverlay` in the toolchain), meant for
// Apple's UIKit: a file that imports both Testing and UIKit makes the
// compiler look for a module `_Testing_UIKit`. This is that module, empty,
// so that `import Testing` and `import UIKit` work together on Linux.
@_exported import UIKit
