/// Array operations for main-actor hot paths.
///
/// A closure written in main-actor code and passed to a standard-library
/// function (`filter`, `removeAll(where:)`, …) gets a dynamic check, at
/// every call, that it runs on the main actor: the library is not compiled
/// in Swift 6 mode. Passed to a function of this module, which is, it does
/// not. These forward to the library; the event path uses them, so a touch
/// does not pay for dozens of executor checks.
///
/// Removal is written out here too, and in `HID`'s `removeAllKeepingStorage()`.
/// The library's `removeAll(where:)` and `removeAll(keepingCapacity:)` go
/// through its generic range replacement, which for arrays of objects or
/// enums looks up type metadata by name (some hundreds of instructions) even
/// when nothing is removed. The event path empties and prunes short arrays
/// many times per frame.
extension Array {
    func filtered(_ isIncluded: (Element) -> Bool) -> [Element] {
        filter(isIncluded)
    }

    func mapped<T>(_ transform: (Element) -> T) -> [T] {
        map(transform)
    }

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

    func firstPosition(_ predicate: (Element) -> Bool) -> Int? {
        firstIndex(where: predicate)
    }
}

extension Sequence {
    func anySatisfy(_ predicate: (Element) -> Bool) -> Bool {
        contains(where: predicate)
    }

    func firstSatisfying(_ predicate: (Element) -> Bool) -> Element? {
        first(where: predicate)
    }
}

/// Loops over objects that an array keeps alive, without the retain and
/// release per element that a `for` loop over a class array costs. For the
/// hot paths: a hit test visits a dozen views, the run loop a few sources,
/// for every touch. Call them on a local copy of a stored array: the copy
/// keeps the elements alive and its buffer valid even if the stored array
/// changes during the loop.
extension Array where Element: AnyObject {
    /// Calls `body` with each element, first to last.
    func forEachUnretained(_ body: (Element) -> Void) {
        withUnsafeBufferPointer { buffer in
            for index in buffer.indices { Self.unretainedElement(buffer, index)._withUnsafeGuaranteedRef(body) }
        }
    }

    /// The first non-nil result of `body`, visiting the elements first to last.
    func firstResultUnretained<Result>(_ body: (Element) -> Result?) -> Result? {
        withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                if let result = Self.unretainedElement(buffer, index)._withUnsafeGuaranteedRef(body) { return result }
            }
            return nil
        }
    }

    /// Removes the first element that is `object`, if any: for lists that
    /// hold an object at most once, cheaper than ``removeEvery(_:)``.
    mutating func removeFirstIdentical(to object: Element) {
        if let found = firstIndexIdentical(to: object) { remove(at: found) }
    }

    /// Where `object` itself first appears, if it does.
    func firstIndexIdentical(to object: Element) -> Int? {
        let target = Unmanaged.passUnretained(object).toOpaque()
        return withUnsafeBufferPointer { buffer in
            for index in buffer.indices where Self.unretainedElement(buffer, index).toOpaque() == target { return index }
            return nil
        }
    }

    /// Whether any element satisfies `predicate`.
    func containsUnretained(where predicate: (Element) -> Bool) -> Bool {
        firstResultUnretained { predicate($0) ? true : nil } != nil
    }

    /// The first non-nil result of `body`, visiting the elements last to first.
    func firstResultFromBackUnretained<Result>(_ body: (Element) -> Result?) -> Result? {
        withUnsafeBufferPointer { buffer in
            var index = buffer.count
            while index > 0 {
                index -= 1
                if let result = Self.unretainedElement(buffer, index)._withUnsafeGuaranteedRef(body) { return result }
            }
            return nil
        }
    }

    @inline(__always)
    private static func unretainedElement(_ buffer: UnsafeBufferPointer<Element>, _ index: Int) -> Unmanaged<Element> {
        UnsafeRawPointer(buffer.baseAddress!).load(fromByteOffset: index * MemoryLayout<Element>.stride, as: Unmanaged<Element>.self)
    }
}
