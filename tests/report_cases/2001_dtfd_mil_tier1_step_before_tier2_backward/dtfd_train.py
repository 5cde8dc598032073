"""Training routine for the double-tier feature distillation MIL model (tier-1 + tier-2)."""
import random

import numpy as np
import torch


class AverageMeter(object):
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def get_cam_1d(classifier, features):
    tweight = list(classifier.parameters())[-2]
    return torch.einsum('bgf,cf->bcg', [features, tweight])


def train_one_epoch(slides, labels, classifier, dimReduction, attention, UClassifier,
                    optimizer0, optimizer1, ce_cri, params, numGroup=3, total_instance=3, distill='AFS'):
    classifier.train(); dimReduction.train(); attention.train(); UClassifier.train()
    instance_per_group = total_instance // numGroup
    Train_Loss0, Train_Loss1 = AverageMeter(), AverageMeter()

    for slide_idx, tfeat_tensor in enumerate(slides):
        tslideLabel = labels[slide_idx].unsqueeze(0)
        slide_pseudo_feat, slide_sub_preds, slide_sub_labels = [], [], []

        feat_index = list(range(tfeat_tensor.shape[0]))
        random.shuffle(feat_index)
        index_chunk_list = [c.tolist() for c in np.array_split(np.array(feat_index), numGroup)]

        for tindex in index_chunk_list:
            slide_sub_labels.append(tslideLabel)
            subFeat_tensor = torch.index_select(tfeat_tensor, dim=0, index=torch.LongTensor(tindex))
            tmidFeat = dimReduction(subFeat_tensor)
            tAA = attention(tmidFeat).squeeze(0)
            tattFeats = torch.einsum('ns,n->ns', tmidFeat, tAA)
            tattFeat_tensor = torch.sum(tattFeats, dim=0).unsqueeze(0)
            tPredict = classifier(tattFeat_tensor)
            slide_sub_preds.append(tPredict)

            patch_pred_logits = get_cam_1d(classifier, tattFeats.unsqueeze(0)).squeeze(0)
            patch_pred_softmax = torch.softmax(patch_pred_logits.transpose(0, 1), dim=1)
            _, sort_idx = torch.sort(patch_pred_softmax[:, -1], descending=True)
            topk_idx_max = sort_idx[:instance_per_group].long()
            topk_idx_min = sort_idx[-instance_per_group:].long()
            topk_idx = torch.cat([topk_idx_max, topk_idx_min], dim=0)

            if distill == 'MaxMinS':
                slide_pseudo_feat.append(tmidFeat.index_select(dim=0, index=topk_idx))
            elif distill == 'MaxS':
                slide_pseudo_feat.append(tmidFeat.index_select(dim=0, index=topk_idx_max))
            elif distill == 'AFS':
                slide_pseudo_feat.append(tattFeat_tensor)

        slide_pseudo_feat = torch.cat(slide_pseudo_feat, dim=0)

        # optimization for the first tier
        slide_sub_preds = torch.cat(slide_sub_preds, dim=0)
        slide_sub_labels = torch.cat(slide_sub_labels, dim=0)
        loss0 = ce_cri(slide_sub_preds, slide_sub_labels).mean()
        optimizer0.zero_grad()
        loss0.backward(retain_graph=True)
        torch.nn.utils.clip_grad_norm_(dimReduction.parameters(), params.grad_clipping)
        torch.nn.utils.clip_grad_norm_(attention.parameters(), params.grad_clipping)
        torch.nn.utils.clip_grad_norm_(classifier.parameters(), params.grad_clipping)
        optimizer0.step()

        # optimization for the second tier
        gSlidePred = UClassifier(slide_pseudo_feat)
        loss1 = ce_cri(gSlidePred, tslideLabel).mean()
        optimizer1.zero_grad()
        loss1.backward()
        torch.nn.utils.clip_grad_norm_(UClassifier.parameters(), params.grad_clipping)
        optimizer1.step()

        Train_Loss0.update(loss0.item(), numGroup)
        Train_Loss1.update(loss1.item(), 1)

    return Train_Loss0.avg, Train_Loss1.avg
