extension Array {
    /// Empties the array and keeps its storage, for arrays that stay short.
    ///
    /// The library's `removeAll(keepingCapacity:)` goes through its generic
    /// range replacement, which costs some hundreds of instructions even for
    /// one element; the event path empties short arrays many times a frame.
    /// Shared with `UIKit`, which uses it on the same path (its other
    /// removal helpers are in the file of the same name there); inlinable,
    /// so that each use is specialized for its element type.
    @inlinable package mutating func removeAllKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}
