"""Point-splat scene fitting with joint camera pose refinement (3DGS-style training loop)."""
import torch
from cameras import Camera, look_at_w2c, render
from pose import PoseAdjust

torch.manual_seed(0)

opt = dict(iterations=9, num_points=40, num_views=3, lr_points=1e-2, lr_pose=1e-3, pose_opt=True)


def build_scene(opt):
    gt_points = torch.randn(opt["num_points"], 3) * 0.5
    gt_colors = torch.randn(opt["num_points"], 3)
    cams = []
    for i in range(opt["num_views"]):
        w2c = look_at_w2c(torch.tensor(2.0 * 3.14159 * i / opt["num_views"]))
        with torch.no_grad():
            img = render(gt_points, gt_colors, w2c, 20.0, 16)
        cams.append(Camera(i, w2c, img))
    return cams


def training(opt):
    cameras = build_scene(opt)
    points = torch.nn.Parameter(torch.randn(opt["num_points"], 3) * 0.5)
    colors = torch.nn.Parameter(torch.zeros(opt["num_points"], 3))
    pose_adjust = PoseAdjust(len(cameras))
    optimizer = torch.optim.Adam([points, colors], lr=opt["lr_points"])
    pose_optimizer = torch.optim.Adam(pose_adjust.parameters(), lr=opt["lr_pose"])

    for iteration in range(opt["iterations"]):
        viewpoint_cam = cameras[iteration % len(cameras)]
        if opt["pose_opt"]:
            c2w = viewpoint_cam.world_view_transform.inverse()
            adjusted_c2w = pose_adjust(c2w, torch.tensor([viewpoint_cam.uid]))
            w2c = adjusted_c2w.inverse()
        else:
            w2c = viewpoint_cam.world_view_transform
        image = render(points, colors, w2c, viewpoint_cam.focal, viewpoint_cam.size)
        loss = (image - viewpoint_cam.image).abs().mean()
        optimizer.zero_grad()
        pose_optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        pose_optimizer.step()
        print(f"iter {iteration}: L1 {loss.item():.4f}")
        if opt["pose_opt"] and (iteration + 1) % len(cameras) == 0:
            # bake the refined poses into the cameras and restart the corrections from zero
            with torch.no_grad():
                for cam in cameras:
                    refined = pose_adjust(cam.world_view_transform.inverse(), torch.tensor([cam.uid]))
                    cam.world_view_transform = refined.inverse()
                    cam.camera_center = refined[:3, 3]
                pose_adjust.embeds.weight.zero_()


if __name__ == "__main__":
    training(opt)
