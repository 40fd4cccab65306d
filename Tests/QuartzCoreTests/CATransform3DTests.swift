import TestExpectations
import Testing
import QuartzCore

@Suite struct CATransform3DTests {
    @Test func identity() {
        let t = CATransform3DIdentity
        expectEqual([t.m11, t.m12, t.m13, t.m14], [1, 0, 0, 0])
        expectEqual([t.m21, t.m22, t.m23, t.m24], [0, 1, 0, 0])
        expectEqual([t.m31, t.m32, t.m33, t.m34], [0, 0, 1, 0])
        expectEqual([t.m41, t.m42, t.m43, t.m44], [0, 0, 0, 1])
        #expect(CATransform3DIsIdentity(t))
        expectEqual(CATransform3D(), t)
        #expect(CATransform3DIsAffine(t))
        expectEqual(CATransform3DGetAffineTransform(t), .identity)
    }

    @Test func affineRoundTrip() {
        let affine = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(affine)
        // a b sit in the first row, c d in the second, tx ty in the fourth.
        #expect(t == CATransform3D(
            m11: 1, m12: 2, m13: 0, m14: 0,
            m21: 3, m22: 4, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: 5, m42: 6, m43: 0, m44: 1))
        #expect(CATransform3DIsAffine(t))
        #expect(!CATransform3DIsIdentity(t))
        expectEqual(CATransform3DGetAffineTransform(t), affine)
        expectEqual(CATransform3DMakeAffineTransform(.identity), CATransform3DIdentity)
    }

    @Test func affinePartIgnoresDepthAndPerspective() {
        var t = CATransform3DMakeAffineTransform(CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 5))
        t.m34 = -1.0 / 500
        t.m43 = 7
        t.m33 = 2
        #expect(!CATransform3DIsAffine(t))
        expectEqual(CATransform3DGetAffineTransform(t), CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 5))
    }

    @Test(arguments: ["m13", "m14", "m23", "m24", "m31", "m32", "m34", "m43"])
    func anyDepthTermMakesATransformNonAffine(_ term: String) {
        var t = CATransform3DIdentity
        switch term {
        case "m13": t.m13 = 0.5
        case "m14": t.m14 = 0.5
        case "m23": t.m23 = 0.5
        case "m24": t.m24 = 0.5
        case "m31": t.m31 = 0.5
        case "m32": t.m32 = 0.5
        case "m34": t.m34 = 0.5
        default: t.m43 = 0.5
        }
        #expect(!CATransform3DIsAffine(t))
    }

    @Test func translationAndScale() {
        let move = CATransform3DMakeTranslation(1, 2, 3)
        expectEqual([move.m41, move.m42, move.m43, move.m44], [1, 2, 3, 1])
        expectEqual([move.m11, move.m22, move.m33], [1, 1, 1])
        expectEqual(CATransform3DGetAffineTransform(move), CGAffineTransform(translationX: 1, y: 2))
        #expect(!CATransform3DIsAffine(move))  // the z translation is a depth term

        let scale = CATransform3DMakeScale(2, 3, 4)
        expectEqual([scale.m11, scale.m22, scale.m33, scale.m44], [2, 3, 4, 1])
        expectEqual(CATransform3DGetAffineTransform(scale), CGAffineTransform(scaleX: 2, y: 3))
    }

    @Test func concatAppliesTheFirstThenTheSecond() {
        let move = CATransform3DMakeTranslation(10, 0, 0)
        let scale = CATransform3DMakeScale(2, 3, 4)
        // Move then scale: (x, y, z) → (2·(x + 10), 3·y, 4·z): the translation is scaled.
        var expected = CATransform3DMakeScale(2, 3, 4)
        expected.m41 = 20
        expectEqual(CATransform3DConcat(move, scale), expected)
        // Scale then move: the translation is not scaled.
        expected.m41 = 10
        expectEqual(CATransform3DConcat(scale, move), expected)
    }

    @Test func concatOfAffineTransformsMatchesCGAffineTransformConcatenating() {
        // From the CGAffineTransform tests: [1 2; 3 4; 5 6] × [7 8; 9 10; 11 12]
        // = a 25, b 28, c 57, d 64, tx 100, ty 112.
        let product = CATransform3DConcat(
            CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)),
            CATransform3DMakeAffineTransform(CGAffineTransform(a: 7, b: 8, c: 9, d: 10, tx: 11, ty: 12)))
        expectEqual(product, CATransform3DMakeAffineTransform(CGAffineTransform(a: 25, b: 28, c: 57, d: 64, tx: 100, ty: 112)))
    }

    @Test func concatIsAFullFourByFourProduct() {
        var perspective = CATransform3DIdentity
        perspective.m34 = 2
        let push = CATransform3DMakeTranslation(0, 0, 3)
        // Row 3 of the product = row 3 of `perspective` [0 0 1 2] × `push`
        //   = 1·[0 0 1 0] + 2·[0 0 3 1] = [0 0 7 2];
        // row 4 = [0 0 0 1] × `push` = [0 0 3 1]; rows 1 and 2 stay the identity's.
        let expected = CATransform3D(
            m11: 1, m12: 0, m13: 0, m14: 0,
            m21: 0, m22: 1, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 7, m34: 2,
            m41: 0, m42: 0, m43: 3, m44: 1)
        expectEqual(CATransform3DConcat(perspective, push), expected)
        // The other way: row 3 = [0 0 1 2] (push's row 3 is [0 0 1 0] × perspective),
        // row 4 = [0 0 3 1] × perspective = [0 0 3 3·2 + 1] = [0 0 3 7].
        let reversed = CATransform3D(
            m11: 1, m12: 0, m13: 0, m14: 0,
            m21: 0, m22: 1, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 2,
            m41: 0, m42: 0, m43: 3, m44: 7)
        expectEqual(CATransform3DConcat(push, perspective), reversed)
    }

    @Test func concatWithTheIdentity() {
        let t = CATransform3D(
            m11: 1, m12: 2, m13: 3, m14: 4, m21: 5, m22: 6, m23: 7, m24: 8,
            m31: 9, m32: 10, m33: 11, m34: 12, m41: 13, m42: 14, m43: 15, m44: 16)
        expectEqual(CATransform3DConcat(t, CATransform3DIdentity), t)
        expectEqual(CATransform3DConcat(CATransform3DIdentity, t), t)
    }
}
