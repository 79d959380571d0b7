"""Oracle for samples/unsharp_mask.mlir (the sample model is not in this dir).

Input: one 1080x1920x3 HWC image; the model's i8 elements hold pixel bytes,
read as UNSIGNED 0..255. Output f32 [1080, 1920, 3]:
    blur = ([1,2,1]/4 along W, then [1,2,1]/4 along H) per channel, zero padding
    out  = clamp(x + 1.5 * (x - blur), 0, 255)
Computed in exact integer arithmetic: with B = 16 * blur (an integer),
    out = clamp((80 x - 3 B) / 32, 0, 255),
which is a multiple of 1/32 below 2^10, hence exact in f32.
"""
import numpy as np

import e2e_common as common

H, W, C = 1080, 1920, 3
r = common.rng(14)
# A photo-like image: smooth colour gradients with sensor noise, plus a block
# of full-range random bytes and saturated (0 / 255) rectangles.
hh, ww = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
base = np.stack([hh * 255.0 / H, ww * 255.0 / W, (hh + ww) % 256], axis=-1)
img = np.clip(base + r.normal(0.0, 12.0, (H, W, C)), 0, 255).round()
img[100:300, 200:600] = r.randint(0, 256, (200, 400, C))
img[500:540, 900:1000] = 255
img[600:640, 900:1000] = 0
pixels = img.astype(np.uint8)

x = pixels.astype(np.int64)
xp = np.zeros((H + 2, W + 2, C), np.int64)     # zero padding on H and W only
xp[1:-1, 1:-1] = x
taps = {(0, 0): 1, (0, 1): 2, (0, 2): 1,
        (1, 0): 2, (1, 1): 4, (1, 2): 2,
        (2, 0): 1, (2, 1): 2, (2, 2): 1}        # outer([1,2,1], [1,2,1])
b16 = np.zeros((H, W, C), np.int64)
for (dh, dw), k in taps.items():
    b16 += k * xp[dh:dh + H, dw:dw + W]
out = np.clip((80 * x - 3 * b16) / 32.0, 0.0, 255.0)

common.save([pixels.view(np.int8)], [out.astype(np.float32)])
