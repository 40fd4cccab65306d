// The Clang module underneath the Swift module UIKit. It declares nothing:
// it exists so that `import UIKit.<submodule>` finds the submodules UIKit
// has on Apple's platforms. The Swift module re-exports it.
