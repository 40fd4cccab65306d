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
            for index in buffer.indices { unretainedElement(buffer, index)._withUnsafeGuaranteedRef(body) }
        }
    }

    /// The first non-nil result of `body`, visiting the elements first to last.
    func firstResultUnretained<Result>(_ body: (Element) -> Result?) -> Result? {
        withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                if let result = unretainedElement(buffer, index)._withUnsafeGuaranteedRef(body) { return result }
            }
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
                if let result = unretainedElement(buffer, index)._withUnsafeGuaranteedRef(body) { return result }
            }
            return nil
        }
    }
}

/// The element at `index` of an array of objects, read without a retain.
@inline(__always)
func unretainedElement<Element: AnyObject>(_ buffer: UnsafeBufferPointer<Element>, _ index: Int) -> Unmanaged<Element> {
    UnsafeRawPointer(buffer.baseAddress!).load(fromByteOffset: index * MemoryLayout<Element>.stride, as: Unmanaged<Element>.self)
}
