// Swift Testing declares a cross-import overlay for a module named
// CoreGraphics (`Testing.swiftcrossimport/CoreGraphics.swiftoverlay` in the
// toolchain), meant for Apple's: a file that imports both Testing and
// CoreGraphics makes the compiler look for a module `_Testing_CoreGraphics`.
// This is that module, empty, so that the two imports work together on Linux.
@_exported import CoreGraphics
