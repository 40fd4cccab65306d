// Foundation on Linux already defines CGFloat, CGPoint, CGSize and CGRect;
// this module adds the rest of Core Graphics on top of them, and a client
// that imports it sees both, as on Apple's platforms.
@_exported import Foundation
