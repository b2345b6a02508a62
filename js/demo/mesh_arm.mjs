// re2d demo (make demo-mesh): a two-bone arm follows a moving target with $.mesh.ik and is drawn by the default CPU engine into PNG frames.
import { installMesh } from 're2d/mesh';

const outDir = scriptArgs[1] || 'out';
const frames = Number(scriptArgs[2]) || 4;
const $ = {};
$.mesh = installMesh($);

const W = engine.width, H = engine.height;
const sx = W * 0.3, sy = H * 0.55, L1 = W * 0.25, L2 = W * 0.22;
const rig = $.mesh.skeleton({
    shoulder: { x: sx, y: sy, length: L1, angle: 0 },
    elbow: { parent: 'shoulder', length: L2, angle: 0 },
});

// One continuous skinned strip along the rest arm (x from the shoulder), weights
// blending from the upper arm to the forearm around the elbow.
function armStrip(cols, rows, thick, blend, tint) {
    const verts = [], uv = [], weights = [], colors = [], tris = [];
    const len = L1 + L2;
    for (let j = 0; j < rows; j++) {
        for (let i = 0; i < cols; i++) {
            const t = i / (cols - 1), s = j / (rows - 1);
            const x = sx + t * len;
            const taper = 1 - 0.35 * t;
            const y = sy + (s - 0.5) * thick * taper;
            verts.push(x, y);
            uv.push(t, s);
            const w = Math.min(1, Math.max(0, (x - (sx + L1 - thick * 0.6)) / (thick * 1.2)));
            weights.push(['shoulder', 1 - w, 'elbow', w]);
            const shade = 0.65 + 0.35 * Math.sin(s * Math.PI);
            colors.push([tint[0] * shade, tint[1] * shade, tint[2] * shade]);
        }
    }
    for (let j = 0; j + 1 < rows; j++) {
        for (let i = 0; i + 1 < cols; i++) {
            const a = j * cols + i, b = a + 1, c = a + cols, d = c + 1;
            tris.push(a, b, d, a, d, c);
        }
    }
    return $.mesh.part({ verts, uv, weights, colors, tris, depth: 0.5, blend });
}

function square(x, y, r, rgb, depth) {
    return $.mesh.part({
        verts: [x - r, y - r, x + r, y - r, x + r, y + r, x - r, y + r],
        tris: [0, 1, 2, 0, 2, 3], colors: [rgb, rgb, rgb, rgb], depth,
    });
}

const arm = armStrip(48, 6, H * 0.09, 'rigid', [90, 160, 235]);
for (let f = 0; f < frames; f++) {
    const t = f / frames;
    const target = {
        x: sx + (L1 + L2) * (0.55 + 0.3 * Math.cos(t * Math.PI * 2)),
        y: sy - (L1 + L2) * 0.45 * Math.sin(t * Math.PI * 2),
    };
    const sol = $.mesh.ik(rig, {}, target, { chain: ['shoulder', 'elbow'], bend: -1, limits: { elbow: [-2.6, 0] } });
    engine.clear(24, 26, 32, 255);
    $.mesh.draw(square(sx, sy, H * 0.035, [200, 200, 210], 0.4));
    $.mesh.draw(arm, sol.angles, rig);
    $.mesh.draw(square(target.x, target.y, H * 0.02, [240, 70, 60], 0.1));
    const tip = sol.tip;
    $.mesh.draw(square(tip.x, tip.y, H * 0.01, [250, 230, 90], 0.05));
    const file = `${outDir}/mesh-arm-${f}.png`;
    engine.savePNG(file);
    print(`${file}: target (${target.x.toFixed(1)}, ${target.y.toFixed(1)}) reached=${sol.reached} distance=${sol.distance.toFixed(3)}`);
}
