/// Removal from the event path's short arrays, written out as loops.
///
/// The library's `removeAll(where:)` and `removeAll(keepingCapacity:)` go
/// through its generic range replacement, which for arrays of objects or
/// enums looks up type metadata by name (some hundreds of instructions)
/// even when nothing is removed; the event path empties and prunes short
/// arrays many times per frame. Emptying is in `HID`
/// (`removeAllKeepingStorage()`), which uses it too.
extension Array {
    /// Removes the elements that satisfy `shouldBeRemoved`, keeping the
    /// order of the others and the array's storage.
    mutating func removeEvery(_ shouldBeRemoved: (Element) -> Bool) {
        var kept = 0
        for index in indices where !shouldBeRemoved(self[index]) {
            if kept != index { swapAt(kept, index) }
            kept += 1
        }
        while count > kept { removeLast() }
    }
}

extension Array where Element: AnyObject {
    /// Removes the first element that is `object`, if any: for lists that
    /// hold an object at most once, cheaper than ``removeEvery(_:)``.
    mutating func removeFirstIdentical(to object: Element) {
        if let found = firstIndexIdentical(to: object) { remove(at: found) }
    }
}
