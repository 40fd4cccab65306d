// Core Animation sits on Core Graphics: `import QuartzCore` brings its
// geometry, colours and contexts, as on Apple's platforms.
@_exported import CoreGraphics
