"""Triangulation refinement with a calibrated multi-camera rig: the rig is built once and kept fixed,
only the 3-D point offsets are optimised against the detected 2-D keypoints."""
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
    points_offset = torch.zeros(20, 3, requires_grad=True)
    optimizer = torch.optim.Adam([points_offset], lr=1e-2)
    with torch.no_grad():
        cameras = camera_param()  # rig is trusted: built once, without history
    for it in range(iters):
        projected = cameras.transform_points_screen(points + points_offset)
        loss = (projected - observed).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} reprojection error {loss.item():.3f}")


if __name__ == "__main__":
    main()
