import collections

import torch
import torch.nn as nn

BiEncoderBatch = collections.namedtuple(
    "BiEncoderInput",
    ["question_ids", "question_segments", "context_ids", "ctx_segments", "is_positive"])


class HFEncoderStub(nn.Module):
    """Small BERT-like encoder returning (sequence_output, pooled_output, hidden_states)."""

    def __init__(self, vocab_size=100, hidden=32, layers=1):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden)
        self.segment_embeddings = nn.Embedding(2, hidden)
        layer = nn.TransformerEncoderLayer(hidden, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.pooler = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())

    def forward(self, input_ids, token_type_ids, attention_mask, representation_token_pos=0):
        h = self.embeddings(input_ids) + self.segment_embeddings(token_type_ids)
        sequence_output = self.encoder(h, src_key_padding_mask=~attention_mask)
        pooled_output = self.pooler(sequence_output[:, representation_token_pos, :])
        return sequence_output, pooled_output, None


class BiEncoder(nn.Module):
    def __init__(self, question_model, ctx_model, fix_q_encoder=False, fix_ctx_encoder=False):
        super().__init__()
        self.question_model = question_model
        self.ctx_model = ctx_model
        self.fix_q_encoder = fix_q_encoder
        self.fix_ctx_encoder = fix_ctx_encoder

    @staticmethod
    def get_representation(sub_model, ids, segments, attn_mask, fix_encoder=False, representation_token_pos=0):
        sequence_output = pooled_output = hidden_states = None
        if ids is not None:
            if fix_encoder:
                with torch.no_grad():
                    sequence_output, pooled_output, hidden_states = sub_model(
                        ids, segments, attn_mask, representation_token_pos=representation_token_pos)
                if sub_model.training:
                    sequence_output.requires_grad_(requires_grad=True)
                    pooled_output.requires_grad_(requires_grad=True)
            else:
                sequence_output, pooled_output, hidden_states = sub_model(
                    ids, segments, attn_mask, representation_token_pos=representation_token_pos)
        return sequence_output, pooled_output, hidden_states

    def forward(self, question_ids, question_segments, question_attn_mask,
                context_ids, ctx_segments, ctx_attn_mask):
        _q_seq, q_pooled_out, _q_hidden = self.get_representation(
            self.question_model, question_ids, question_segments, question_attn_mask, self.fix_q_encoder)
        _ctx_seq, ctx_pooled_out, _ctx_hidden = self.get_representation(
            self.ctx_model, context_ids, ctx_segments, ctx_attn_mask, self.fix_ctx_encoder)
        return q_pooled_out, ctx_pooled_out


class BiEncoderNllLoss(object):
    def calc(self, q_vectors, ctx_vectors, positive_idx_per_question):
        scores = torch.matmul(q_vectors, torch.transpose(ctx_vectors, 0, 1))
        softmax_scores = torch.log_softmax(scores.view(q_vectors.size(0), -1), dim=1)
        loss = torch.nn.functional.nll_loss(
            softmax_scores, torch.tensor(positive_idx_per_question), reduction="mean")
        max_idxs = torch.max(softmax_scores, 1)[1]
        correct_predictions_count = (max_idxs == torch.tensor(positive_idx_per_question)).sum()
        return loss, correct_predictions_count
