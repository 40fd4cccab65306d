import CoreGraphics

/// The bitmaps views draw into (their backing stores), kept to be drawn
/// into again.
///
/// A view's `draw(_:)` runs into a bitmap context whose memory is the very
/// image that then becomes its layer's contents, with no copy in between.
/// Each image is kept here with its context. Once the view has drawn again
/// and the committed layer tree has let go of the old image too, nothing
/// references that image but this pool, and the next view of the same
/// pixel size to be displayed draws into it, cleared, through the context
/// kept with it. A reused table cell's label thus draws its new text into
/// the bitmap another row's label showed a frame or two before, and the
/// display allocates nothing.
///
/// An image is only ever drawn into while the pool holds the one reference
/// to it, so no layer, committed tree or caller can see it change. Free
/// stores beyond ``spareLimit`` (or ``spareByteLimit`` bytes) are let go
/// as they are found; a store that would take the pool past ``capacity``
/// stores or ``byteLimit`` bytes, free or in use, is not kept at all, so
/// that views gone since the last display leave little behind.
@MainActor
final class BackingStorePool {
    private struct Store {
        var image: CGImage
        let context: CGContext
    }

    private var stores: [Store] = []

    /// The most free stores kept: a few rows coming into view within one frame.
    static let spareLimit = 8
    /// The most bytes of free stores kept (a free full-screen bitmap is not
    /// worth keeping: 12 MB on a 3× phone).
    static let spareByteLimit = 8 << 20
    /// The most stores the pool follows, free or in use.
    static let capacity = 64
    /// The most bytes of the stores the pool follows, free or in use.
    static let byteLimit = 32 << 20

    /// An image of `width`×`height` pixels, transparent, and a context that
    /// draws into it (a new context's state); nil when the size cannot be
    /// allocated. Draw, then show the image; do not keep the context.
    func store(width: Int, height: Int) -> (image: CGImage, context: CGContext)? {
        var found: Int?
        var spares = 0
        var spareBytes = 0
        var index = 0
        while index < stores.count {
            guard isKnownUniquelyReferenced(&stores[index].image) else {
                index += 1
                continue
            }
            let image = stores[index].image
            if found == nil && image.width == width && image.height == height {
                found = index
                index += 1
                continue
            }
            spares += 1
            spareBytes += image.width * image.height * 4
            if spares > Self.spareLimit || spareBytes > Self.spareByteLimit {
                spares -= 1
                spareBytes -= image.width * image.height * 4
                stores.swapAt(index, stores.count - 1)
                stores.removeLast()
                if found == stores.count { found = index }
                continue
            }
            index += 1
        }
        if let found {
            let store = stores[found]
            store.context.clearForReuse()
            store.image.forgetInkBounds()
            return (store.image, store.context)
        }
        guard let image = CGImage(width: width, height: height, fill: { _ in }),
              let context = CGContext(data: image.pixels.base, width: width, height: height, bitsPerComponent: 8,
                                      bytesPerRow: width * 4, space: CGColorSpaceCreateDeviceRGB(),
                                      bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        var bytes = width * height * 4
        for store in stores { bytes += store.image.width * store.image.height * 4 }
        if stores.count < Self.capacity && bytes <= Self.byteLimit { stores.append(Store(image: image, context: context)) }
        return (image, context)
    }

    /// How many stores the pool follows, and how many of them are free.
    var counts: (stores: Int, free: Int) {
        var free = 0
        for index in stores.indices where isKnownUniquelyReferenced(&stores[index].image) { free += 1 }
        return (stores.count, free)
    }

    func removeAll() {
        stores.removeAll()
    }
}
