// `import UIKit.UIGestureRecognizerSubclass`: on Apple's platforms it makes a
// recognizer's `state` settable and its touch methods overridable. Here the
// Swift module UIKit already declares them so, and this submodule is empty.
