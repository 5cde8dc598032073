"""Refining the extrinsics of a multi-camera rig: a 3-D calibration object is projected through the
learnable cameras and compared with the detected 2-D keypoints (bundle-adjustment style)."""
import torch
from cameras import CameraParameter

torch.manual_seed(0)


def main(iters=4):
    points = torch.randn(20, 3) * 0.5
    with torch.no_grad():
        true_rig = CameraParameter()
        true_rig.rvec_euler_angle_list.add_(0.02 * torch.randn_like(true_rig.rvec_euler_angle_list))
        observed = true_rig().transform_points_screen(points)
    camera_param = CameraParameter()
    optimizer = torch.optim.Adam(camera_param.parameters(), lr=1e-3)
    cameras = camera_param()
    for it in range(iters):
        projected = cameras.transform_points_screen(points)
        loss = (projected - observed).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} reprojection error {loss.item():.3f}")


if __name__ == "__main__":
    main()
