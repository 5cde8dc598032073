"""Facts about Python and PyTorch that code of libraries and projects nobody here wrote
relies on (each test is a program reduced from a finding a library's author would have
muted, or from a hazard a program written from a public report hid): the exact findings,
or none."""

import textwrap

from gradguard.analysis import analyze


def _found(text):
    result = analyze(textwrap.dedent(text))
    assert result.errors == ()
    return [(f.code, f.span.start.line, f.message.render()) for f in result.findings]


def test_a_user_decorator_that_applies_inference_mode_runs_the_function_without_grad():
    # yolov5 / ultralytics: ``@smart_inference_mode()``
    program = textwrap.dedent("""\
        import torch


        def smart_inference_mode(torch_1_9=True):
            def decorate(fn):
                return (torch.inference_mode if torch_1_9 else torch.no_grad)()(fn)
            return decorate


        @smart_inference_mode()
        def run(model, dataloader, criterion):
            model.eval()
            loss = 0
            for images, labels in dataloader:
                y = model(images)
                loss += criterion(y, labels)
            return loss / len(dataloader)
        """)
    assert _found(program) == []
    # a decorator that does something else leaves the evaluation loop as it was
    assert [c for c, _, _ in _found(program.replace(
        "return (torch.inference_mode if torch_1_9 else torch.no_grad)()(fn)",
        "return fn"))] == ["GG303"]


def test_an_evaluation_accumulation_needs_every_source_of_its_graph_in_eval_mode():
    # deepchem: a BatchNorm put in eval mode inside forward, beside a trained parameter
    assert _found("""\
        import torch
        from torch import nn


        class Weave(nn.Module):
            def __init__(self):
                super().__init__()
                self.W = nn.Parameter(torch.randn(4, 4))
                self.bn = nn.BatchNorm1d(4)

            def forward(self, x, split):
                h = self.bn.eval() or self.bn(x @ self.W)
                groups = {}
                for i, s in enumerate(split):
                    s = s.item()
                    if s in groups:
                        groups[s] = groups[s] + h[i]
                    else:
                        groups[s] = h[i]
                return torch.stack(list(groups.values()))
        """) == []


def test_the_later_parts_of_an_unknown_functions_result_may_be_numbers():
    # torchtune's DPO loss returns (loss, rewards computed from detached log-probs)
    program = textwrap.dedent("""\
        import torch


        def train(model, loss_fn, optimizer, loader):
            running_rewards = 0
            for batch in loader:
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                loss, chosen_rewards = loss_fn(model(batch))
                running_rewards += chosen_rewards.mean()
                loss.backward()
                optimizer.step()
                optimizer.zero_grad()
            return running_rewards
        """)
    assert _found(program) == []


def test_type_as_takes_only_the_dtype_of_its_argument():
    # machin: ``y_i.type_as(cur_value)`` does not put cur_value's graph into the second loss
    program = textwrap.dedent("""\
        import torch


        def update(critic, critic2, opt1, opt2, criterion, state, reward, next_value):
            with torch.no_grad():
                y_i = reward + 0.99 * next_value
            cur_value = critic(state)
            cur_value2 = critic2(state)
            value_loss = criterion(cur_value, y_i.type_as(cur_value))
            value_loss2 = criterion(cur_value2, y_i.type_as(cur_value))
            critic.zero_grad()
            value_loss.backward()
            opt1.step()
            critic2.zero_grad()
            value_loss2.backward()
            opt2.step()
        """)
    assert _found(program) == []
    assert [c for c, _, _ in _found(program.replace("y_i.type_as(cur_value))\n    value_loss",
                                                    "y_i * cur_value)\n    value_loss"))] == []
    assert [(c, line) for c, line, _ in _found(program.replace(
        "value_loss2 = criterion(cur_value2, y_i.type_as(cur_value))",
        "value_loss2 = criterion(cur_value2, y_i + cur_value)"))] == [("GG101", 15)]


def test_a_loop_over_a_dict_of_known_keys_runs_once_per_key():
    # DI-engine d4pg: one key, one backward
    program = textwrap.dedent("""\
        import torch


        def learn(model, target_model, optimizer, loss_fn, data):
            loss_dict = {}
            model.train()
            q_value = model(data["obs"])
            with torch.no_grad():
                target_q = target_model(data["next_obs"])
            loss_dict["critic_loss"] = loss_fn(q_value, target_q)
            optimizer.zero_grad()
            for k in loss_dict:
                loss_dict[k].backward()
            optimizer.step()
        """)
    assert _found(program) == []
    # two losses of the same graph, one after the other: the second walks it again
    two = program.replace('loss_dict["critic_loss"] = loss_fn(q_value, target_q)',
                          'loss_dict["a"] = q_value.mean()\n'
                          '    loss_dict["b"] = q_value.pow(2).mean()')
    assert _found(two) == [
        ("GG101", 14, "`loss_dict[k]` is backpropagated through the graph of `q_value` (built "
                      "on line 7), which the backward on line 14 already freed")]


def test_a_dict_slot_set_from_its_own_value_is_a_running_total():
    assert [(c, line) for c, line, _ in _found("""\
        import torch

        model = torch.nn.Linear(2, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        totals = {}
        for step in range(3):
            out = model(torch.randn(4, 2))
            losses = {"mse": out.pow(2).mean(), "l1": out.abs().mean()}
            opt.zero_grad()
            (losses["mse"] + losses["l1"]).backward()
            opt.step()
            for key in losses:
                totals[key] = totals.get(key, 0) + losses[key]
        """)] == [("GG301", 13)]


def test_an_accumulator_emptied_in_every_pass_keeps_no_graph_across_passes():
    # PPO-PyTorch: memory.clear_memory() runs self.__init__() after each update
    program = textwrap.dedent("""\
        import torch
        from torch.distributions import Categorical


        class Memory:
            def __init__(self):
                self.logprobs, self.rewards = [], []

            def clear_memory(self):
                self.__init__()


        policy = torch.nn.Linear(4, 2)
        optimizer = torch.optim.Adam(policy.parameters())
        memory = Memory()
        for episode in range(3):
            for t in range(5):
                dist = Categorical(logits=policy(torch.randn(4)))
                memory.logprobs.append(dist.log_prob(dist.sample()))
                memory.rewards.append(1.0)
            loss = -torch.stack(memory.logprobs).detach().sum() + policy.weight.sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            memory.clear_memory()
        """)
    assert _found(program) == []
    # emptied only now and then: what each pass appended may pile up
    assert [(c, line) for c, line, _ in _found(program.replace(
        "    memory.clear_memory()", "    if episode % 2:\n        memory.clear_memory()"))] == [
        ("GG301", 19)]


def test_an_element_of_a_module_dict_built_by_a_comprehension_is_its_submodule():
    # a distillation adaptor: nn.ModuleDict({k: nn.Conv2d(...) for k in widths})
    assert _found("""\
        import torch
        import torch.nn as nn


        class Adaptors(nn.Module):
            def __init__(self, widths):
                super().__init__()
                self.convs = nn.ModuleDict({k: nn.Conv2d(w, 2 * w, 1) for k, w in widths.items()})

            def forward(self, name, f):
                return self.convs[name](f)


        student = nn.Linear(3, 3)
        adaptors = Adaptors({"a": 8, "b": 16})
        opt = torch.optim.Adam(adaptors.parameters(), lr=1e-3)
        for it in range(3):
            loss = student(torch.randn(2, 3)).mean() + adaptors("a", torch.randn(2, 8, 4, 4)).mean()
            loss.backward()
            opt.step()
        """) == []


def test_a_dict_comprehension_over_known_names_keeps_each_values_graph():
    # the four-view classifier: the cut is inside a comprehension over VIEWS
    found = _found("""\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        VIEWS = ["L-CC", "R-CC"]
        model = nn.Linear(4, 4)
        opt = torch.optim.Adam(model.parameters())
        for it in range(3):
            out = {v: model(torch.randn(2, 4)) for v in VIEWS}
            probs = {v: F.softmax(out[v], dim=-1).data.numpy() for v in VIEWS}
            predictions = torch.tensor(probs["L-CC"], dtype=torch.float, requires_grad=True)
            loss = predictions.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """)
    assert [(c, line) for c, line, _ in found] == [("GG402", 10)]


def test_a_module_class_that_defines_call_runs_it_instead_of_forward():
    # OpenNMT's loss modules backward inside __call__
    assert _found("""\
        import torch
        import torch.nn as nn


        class LossCompute(nn.Module):
            def __init__(self, generator):
                super().__init__()
                self.generator = generator

            def __call__(self, output, target):
                loss = nn.functional.mse_loss(self.generator(output), target)
                loss.backward()
                return loss.item()


        model = nn.Linear(3, 3)
        train_loss = LossCompute(model)
        optim = torch.optim.Adam(model.parameters())
        for step in range(3):
            optim.zero_grad()
            train_loss(torch.randn(2, 3), torch.randn(2, 3))
            optim.step()
        """) == []


def test_is_grad_enabled_is_the_grad_mode_of_the_run():
    program = """\
        import torch
        import torch.nn as nn


        class Features:
            def __init__(self, model):
                self.model = model

            def __call__(self, x):
                if not torch.is_grad_enabled():
                    return self.model(x)
                self._cache = self.model(x)
                self._out = self._cache.detach().requires_grad_()
                return self._out


        features = Features(nn.Linear(4, 4))
        head = nn.Linear(4, 1)
        for it in range(3):
            y = head(features(torch.randn(2, 4))).sum()
            with torch.no_grad():
                target = head(features(torch.randn(2, 4))).sum()
            (y - target).backward()
            features._cache.backward(features._out.grad)
        """
    assert _found(program) == []


def test_retain_graph_is_preferred_when_the_steps_between_train_other_modules():
    # autonomous-learning-library's A2C (blind batch X 2616): the value head steps before
    # the policy loss (built on the value only detached) runs through the shared features
    result = analyze(textwrap.dedent('''\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.distributions import Categorical

        class Approximation:
            """autonomous-learning-library style wrapper: a module plus its own optimizer."""

            def __init__(self, model, lr=1e-3):
                self.model = model
                self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

            def __call__(self, *inputs):
                return self.model(*inputs)

            def reinforce(self, loss):
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()


        class FeatureNetwork(Approximation):
            def reinforce(self):
                self.optimizer.step()
                self.optimizer.zero_grad()


        class A2C:
            def __init__(self, features, v, policy, discount=0.99, entropy_loss_scaling=0.01):
                self.features, self.v, self.policy = features, v, policy
                self.discount, self.entropy_loss_scaling = discount, entropy_loss_scaling

            def train(self, states, actions, rewards, next_states, dones):
                features = self.features(states)
                values = self.v(features).squeeze(-1)
                distribution = Categorical(logits=self.policy(features))
                with torch.no_grad():
                    next_values = self.v(self.features(next_states)).squeeze(-1)
                returns = rewards + self.discount * next_values * (1 - dones)
                advantages = returns - values.detach()
                policy_loss = -(distribution.log_prob(actions) * advantages).mean() \
                    - self.entropy_loss_scaling * distribution.entropy().mean()
                self.v.reinforce(F.mse_loss(values, returns))
                self.policy.reinforce(policy_loss)
                self.features.reinforce()
                return policy_loss.item()


        features = FeatureNetwork(nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU()))
        v = Approximation(nn.Linear(32, 1))
        policy = Approximation(nn.Linear(32, 2))
        agent = A2C(features, v, policy)
        for it in range(5):
            s, s2 = torch.randn(16, 4), torch.randn(16, 4)
            a = torch.randint(0, 2, (16,))
            r, d = torch.randn(16), (torch.rand(16) < 0.1).float()
            print(it, agent.train(s, a, r, s2, d))
        '''))
    [finding] = result.findings
    assert (finding.code, finding.span.start.line) == ("GG101", 43)
    [fix] = [f for f in finding.fixes if f.preferred]
    assert [(e.span.start.line, e.new_text) for e in fix.edits] == [(18, "retain_graph=True")]


def test_a_finding_on_a_backward_written_over_several_lines_is_on_the_backward_line():
    found = _found("""\
        import torch

        net = torch.nn.Linear(2, 1)
        h = net(torch.randn(3, 2)).sum()
        for step in range(3):
            (h * 2
             + 1).backward()
        """)
    assert [(c, line) for c, line, _ in found] == [("GG103", 7)]


def test_cat_of_a_list_only_code_not_followed_filled_is_not_known():
    # ultralytics: the list is filled by a forward hook on a submodule of the model
    assert _found("""\
        import torch


        def explain(model, head, im):
            scores = []

            def hook(module, inputs, output):
                scores.append(output)

            handle = head.register_forward_hook(hook)
            im = im.clone().requires_grad_(True)
            model(im)
            handle.remove()
            s = torch.cat(scores, 1)
            return torch.autograd.grad(s.sum(), im)
        """) == []


def test_callbacks_added_to_a_list_of_known_objects_run_and_reset_dicts_hold_nothing():
    # a Catalyst-like runner: a default backward callback runs after the user's own
    # backward (`list(callbacks or [])` adds nothing); its batch_metrics dict is bound anew
    # every batch and updated with known keys
    program = textwrap.dedent("""\
        import torch


        class BackwardCallback:
            def on_batch_end(self, runner):
                runner.batch_metrics["loss"].backward()


        class Runner:
            def __init__(self, model):
                self.model = model

            def train(self, callbacks=None):
                self.callbacks = [BackwardCallback()]
                self.callbacks += list(callbacks or [])
                opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
                for step in range(3):
                    self.batch_metrics = {}
                    loss = self.model(torch.randn(2, 4)).sum()
                    self.batch_metrics.update({"loss": loss, "n": 2})
                    loss.backward()
                    for cb in self.callbacks:
                        cb.on_batch_end(self)
                    opt.step()


        Runner(torch.nn.Linear(4, 1)).train()
        """)
    assert _found(program) == [
        ("GG101", 6, '`runner.batch_metrics["loss"]` is backpropagated through the graph '
                     "of `loss` (built on line 19), which the backward on line 21 already "
                     "freed")]


def test_a_module_dict_slot_set_by_key_is_that_child():
    # adapters added after the model was built, trained alone
    assert _found("""\
        import torch
        import torch.nn as nn


        class Layer(nn.Module):
            def __init__(self):
                super().__init__()
                self.ff = nn.Linear(4, 4)
                self.adapters = nn.ModuleDict()

            def forward(self, x):
                return self.adapters["task"](self.ff(x))


        layer = Layer()
        layer.adapters["task"] = nn.Linear(4, 4)
        layer.ff.requires_grad_(False)
        opt = torch.optim.Adam(layer.adapters["task"].parameters())
        for step in range(3):
            loss = layer(torch.randn(2, 4)).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """) == []


def test_a_helper_that_accumulates_its_parameter_is_reported_at_the_call_that_hands_it_a_graph():
    # mi-prometheus' StatisticsCollector.collect(key, value): the caller passes the loss
    program = textwrap.dedent("""\
        import torch


        class StatisticsCollector:
            def __init__(self):
                self.statistics = {"loss": []}

            def collect(self, key, value):
                self.statistics[key].append(value)


        model = torch.nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        stat_col = StatisticsCollector()
        for step in range(3):
            loss = model(torch.randn(8, 4)).pow(2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            stat_col.collect("loss", loss)
        """)
    result = analyze(program)
    [finding] = result.findings
    assert (finding.code, finding.span.start.line, finding.message.render()) == (
        "GG301", 20, "`self.statistics[key]` (in `collect`) accumulates `loss` with the "
                     "autograd graph this call hands in: every iteration's graph stays in memory")
    assert [(r.span.start.line, r.message.render()) for r in finding.related] == [
        (9, "accumulated here, in `collect`")]
    [fix] = finding.fixes
    assert [(e.span.start.line, e.new_text) for e in fix.edits] == [(20, "loss.detach()")]


def test_gradients_taken_without_create_graph_and_summed_into_a_float_have_no_graph():
    # DomainBed's IGA penalty: per-environment gradients kept in a list of tuples
    found = _found("""\
        import torch
        from torch import autograd

        net = torch.nn.Linear(4, 2)
        opt = torch.optim.Adam(net.parameters())
        for step in range(3):
            grads = []
            for env in range(2):
                env_loss = net(torch.randn(8, 4)).pow(2).mean()
                grads.append(autograd.grad(env_loss, net.parameters(), retain_graph=True))
            mean_loss = net(torch.randn(8, 4)).pow(2).mean()
            mean_grad = autograd.grad(mean_loss, net.parameters(), retain_graph=True)
            penalty = 0
            for grad in grads:
                for g, mean_g in zip(grad, mean_grad):
                    penalty += (g - mean_g).pow(2).sum()
            opt.zero_grad()
            (10.0 * penalty).backward()
            opt.step()
        """)
    assert [(c, line) for c, line, _ in found] == [("GG401", 18)]


def test_a_running_value_grows_by_what_its_terms_bring():
    # DI-engine's guided diffusion sampling: x = x + scale * grad of a gradient taken
    # without create_graph: no term brings a graph (the FAQ's total = total + loss does)
    program = textwrap.dedent("""\
        import torch

        guide = torch.nn.Linear(4, 1)
        x = torch.randn(2, 4)
        for _ in range(3):
            with torch.enable_grad():
                x.requires_grad_()
                y = guide(x).sum()
                grad = torch.autograd.grad([y], [x])[0]
            x = x + 0.01 * grad
        """)
    assert _found(program) == []


def test_a_part_of_an_unknown_result_scaled_by_a_number_of_unknown_origin_may_be_a_number():
    # torchtune's DPO recipes: rewards scaled by 1 / self._gradient_accumulation_steps
    assert _found("""\
        import torch


        class Recipe:
            def train(self, loader):
                running = {"rewards": 0}
                for batch in loader:
                    torch.nn.utils.clip_grad_norm_(self._model.parameters(), 1.0)
                    loss, rewards = self._loss_fn(self._model(batch))
                    scale = 1 / self._gradient_accumulation_steps
                    running["rewards"] += scale * rewards.mean()
                    loss.backward()
                    self._optimizer.step()
        """) == []


def test_an_accumulator_emptied_every_few_iterations_keeps_graphs_until_then():
    # torchtune's recipes: ``running_loss`` summed over a window of micro-batches
    program = """\
        import torch

        net = torch.nn.Linear(4, 1)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        running_loss = 0
        for idx in range(100):
            loss = net(torch.randn(8, 4)).pow(2).mean()
            running_loss += loss
            loss.backward()
            if (idx + 1) % 4 == 0:
                opt.step()
                opt.zero_grad()
                print(running_loss.item())
                running_loss = 0
        """
    result = analyze(textwrap.dedent(program))
    [f] = result.findings
    assert (f.code, f.span.start.line, f.message.render()) == (
        "GG301", 8, "`running_loss` accumulates `loss` with its autograd graph: the graph of "
        "each iteration stays in memory until `running_loss` is emptied")
    assert [(r.span.start.line, r.message.render()) for r in f.related] == [
        (14, "emptied here")]
    # emptied on every iteration: nothing piles up
    assert _found(program.replace("if (idx + 1) % 4 == 0:", "if True:")) == []
    # never emptied in the loop: every iteration's graph
    assert [m for _, _, m in _found(program.replace("                running_loss = 0\n",
                                                    ""))] == [
        "`running_loss` accumulates `loss` with its autograd graph: every iteration's graph "
        "stays in memory"]


def test_layers_built_again_in_forward_are_reported_where_they_are_built():
    # a forward that makes its layers on every call: the optimizer holds __init__'s
    program = """\
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                self.fc = nn.Linear(4, 2)
                return self.fc(x)


        model = Net()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            model(torch.randn(8, 4)).pow(2).mean().backward()
            opt.step()
        """
    assert _found(program) == [(
        "GG402", 11, "`self.fc = nn.Linear(4, 2)` builds layers of `model` again inside the "
        "loop, after `opt` took their parameters (line 16): the backward reaches the new "
        "layers, the optimizer steps the old ones, so they do not train. Build the layers "
        "once, before the optimizer takes them")]
    # built once in __init__ only: it trains
    assert _found(program.replace("x):\n                self.fc = nn.Linear(4, 2)\n",
                                  "x):\n")) == []


def test_a_list_of_losses_keeps_every_graph_though_each_loss_was_backpropagated():
    # Deep RL in Action, appendix A: ``losses.append(loss)`` then ``loss.backward()``
    program = """\
        import torch

        w = torch.randn(784, 10, requires_grad=True)
        opt = torch.optim.SGD([w], lr=1e-4)
        losses = []
        for i in range(30):
            loss = torch.nn.functional.cross_entropy(torch.rand(100, 784) @ w,
                                                     torch.randint(0, 10, (100,)))
            losses.append(loss)
            opt.zero_grad()
            loss.backward()
            opt.step()
        """
    assert _found(program) == [(
        "GG301", 9, "`losses` accumulates `loss` with its autograd graph: every iteration's "
        "graph stays in memory")]
    # a backward of them all (accumulated gradients) uses what the list holds
    assert _found(program.replace("loss.backward()", "torch.stack(losses).sum().backward()")
                  .replace("losses = []\n", "")
                  .replace("for i in range(30):\n", "for i in range(30):\n    losses = []\n")
                  ) == []


def test_a_value_tested_not_to_be_a_tensor_holds_no_graph():
    # pytorch-forecasting: ``{k: v.detach() if torch.is_tensor(v) else v for k, v in
    # log.items()}`` of a dict whose values the engine cannot type one by one (the model's
    # forward is not known: reduced from a report case)
    program = """\
        import torch
        import torch.nn as nn


        class BaseModel(nn.Module):
            def __init__(self, loss=None):
                self.loss = loss or nn.L1Loss()
                self.outputs = []

            def step(self, x, y):
                out = self(x)
                log = {"loss": self.loss(out["prediction"], y), "n": x["inputs"].size(0)}
                return log, out


        class Trainer:
            def fit(self, model, batches):
                for epoch in range(self.max_epochs):
                    for batch in batches:
                        log = model.training_step(batch)
                        log["loss"].backward()


        class Forecaster(BaseModel):
            def __init__(self, **kwargs):
                super().__init__(**kwargs)
                self.head = nn.Linear(4, 4)

            def training_step(self, batch):
                x, y = batch
                log, out = self.step(x, y)
                self.outputs.append({k: (v.detach() if torch.is_tensor(v) else v)
                                     for k, v in log.items()})


        Trainer().fit(Forecaster(), [])
        """
    assert _found(program) == []
    for kept in ("(v.detach() if torch.is_tensor(v) else v)",
                 "(v if torch.is_tensor(v) else v.detach())",
                 "(v.detach() if not torch.is_tensor(v) else v)"):
        assert [c for c, _, _ in _found(program.replace(
            "(v.detach() if torch.is_tensor(v) else v)", kept))] == (
            [] if kept.startswith("(v.detach() if torch") else ["GG301"]), kept


def test_hidden_states_of_one_forward_share_their_graph():
    # layer-wise distillation (pytorch#40005): each layer's loss backpropagated in turn,
    # through the layers below it, which the first backward freed
    program = """\
        import torch
        import torch.nn as nn


        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Linear(10, 16)
                self.layer = nn.ModuleList([nn.Linear(16, 16) for _ in range(3)])

            def forward(self, x):
                h = self.embed(x)
                hidden_states = [h]
                for blk in self.layer:
                    h = h + blk(h)
                    hidden_states.append(h)
                return h, hidden_states


        model = Encoder()
        for step in range(3):
            _, hidden = model(torch.randn(4, 10))
            for i in range(3):
                loss = hidden[i + 1].pow(2).mean()
                loss.backward()
        """
    assert [(c, line) for c, line, _ in _found(program)] == [("GG103", 25)]
    # one list per step, one element per step: each backward has a graph of its own
    assert _found(program.replace(
        "            _, hidden = model(torch.randn(4, 10))\n", "").replace(
        "            for i in range(3):\n", "            for i in range(3):\n"
        "                _, hidden = model(torch.randn(4, 10))\n")) == []


LAYER_DATA = """\
    import torch
    from torch import nn
    from torch.nn import functional as F


    class MyLinear(nn.Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(n_in, n_out))
            self.bias = nn.Parameter(torch.randn(n_out))

        def forward(self, X):
            return F.relu(torch.matmul(X, self.weight.data) + self.bias.data)


    net = nn.Sequential(MyLinear(8, 4), nn.Linear(4, 1))
    trainer = torch.optim.SGD(net.parameters(), lr=0.05)
    for epoch in range(5):
        l = net(torch.randn(16, 8)).pow(2).mean()
        trainer.zero_grad()
        l.backward()
        trainer.step()
    """


def test_a_layer_that_reads_its_own_weights_through_data_does_not_train():
    # d2l's custom layer (d2l-en#2600): the head trains, the layer's parameters never
    # get a gradient
    result = analyze(textwrap.dedent(LAYER_DATA))
    [f] = result.findings
    assert (f.code, f.span.start.line, f.span.start.column) == ("GG402", 13, 38)
    assert f.message.render() == (
        "`self.weight.data` cuts `self.weight` out of the graph: `trainer` (line 22) steps "
        "it, but no backward of this loop reaches it, so its gradient stays None and it "
        "does not train")
    [fix] = f.fixes
    assert fix.preferred and [(e.span.start.line, e.span.start.column, e.span.end.column,
                               e.new_text) for e in fix.edits] == [(13, 49, 54, ""),
                                                               (13, 67, 72, "")]
    # used with its graph: it trains; used also with it elsewhere: it trains
    assert _found(LAYER_DATA.replace(".data", "")) == []
    assert _found(LAYER_DATA.replace(
        "+ self.bias.data)", "+ self.bias.data) + self.weight.sum()")) == []
    # frozen on purpose: nothing to say
    assert _found(LAYER_DATA.replace(
        "    trainer = torch", "    net[0].requires_grad_(False)\n    trainer = torch")) == []


def test_a_reentrant_checkpoint_of_inputs_without_grad_runs_its_layers_without_graph():
    # pytorch-memonger#4: the first stage of a checkpointed network, on the image
    program = """\
        import torch
        import torch.nn as nn
        from torch.utils.checkpoint import checkpoint


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = nn.Linear(8, 8)
                self.head = nn.Linear(8, 2)

            def forward(self, x):
                h = checkpoint(self.stem, x, use_reentrant=True)
                return self.head(h)


        model = Net()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(3):
            loss = model(torch.randn(4, 8)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """
    assert _found(program) == [(
        "GG402", 13, "No tensor given to `checkpoint(self.stem, x, use_reentran...` "
        "requires grad, so this reentrant checkpoint runs `self.stem` without a graph: "
        "`opt` (line 23) steps its parameters, but no backward of this loop reaches them, "
        "so their gradients stay None and they do not train")]
    assert _found(program.replace("use_reentrant=True", "use_reentrant=False")) == []


def test_a_frozen_backbone_run_under_no_grad_in_forward_is_not_reported():
    # cnn-lstm#6: the maintainer's intent; the LSTM and the head train
    assert _found("""\
        import torch
        import torch.nn as nn


        class CNNLSTM(nn.Module):
            def __init__(self):
                super().__init__()
                self.cnn = nn.Linear(12, 8)
                self.lstm = nn.LSTM(8, 4)
                self.fc = nn.Linear(4, 2)

            def forward(self, x):
                with torch.no_grad():
                    f = self.cnn(x)
                out, _ = self.lstm(f)
                return self.fc(out[-1])


        model = CNNLSTM()
        opt = torch.optim.Adam(model.parameters())
        for step in range(3):
            loss = model(torch.randn(5, 2, 12)).pow(2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """) == []


def test_a_grad_mode_context_kept_in_a_variable_turns_grad_off_in_its_block():
    # Lightning#19910: the trainer's test loop under ``ctx``, chosen between two
    # contexts that both turn grad off; the test step refines a leaf by gradient steps
    program = """\
        import torch


        def test(model, batches, fast):
            model.eval()
            ctx = torch.inference_mode() if fast else torch.no_grad()
            with ctx:
                for x, y in batches:
                    x_hat = x.clone().requires_grad_(True)
                    nll = (model(x_hat) - y).pow(2).mean()
                    nll.backward()
        """
    assert [(c, line) for c, line, _ in _found(program)] == [("GG401", 11)]
    # one of the two keeps grad on: not known
    assert _found(program.replace("else torch.no_grad()", "else torch.enable_grad()")) == []


def test_a_list_of_tensors_handed_to_a_model_is_never_detached_whole():
    # msg-stylegan: a generator returning one image per scale, the discriminator taking
    # the list; a list has no .detach(), so the fix recomputes the generator's output
    program = """\
        import torch
        import torch.nn as nn


        class G(nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = nn.Linear(4, 4), nn.Linear(4, 4)

            def forward(self, z):
                return [self.a(z), self.b(z)]


        class D(nn.Module):
            def __init__(self):
                super().__init__()
                self.a, self.b = nn.Linear(4, 1), nn.Linear(4, 1)

            def forward(self, imgs):
                x, y = imgs
                return self.a(x) + self.b(y)


        g, d = G(), D()
        g_opt = torch.optim.Adam(g.parameters())
        d_opt = torch.optim.Adam(d.parameters())
        for step in range(3):
            fake = g(torch.randn(8, 4))
            d_loss = d(fake).mean()
            d_opt.zero_grad()
            d_loss.backward()
            d_opt.step()
            g_loss = -d(fake).mean()
            g_opt.zero_grad()
            g_loss.backward()
            g_opt.step()
        """
    result = analyze(textwrap.dedent(program))
    [f] = result.findings
    assert (f.code, f.span.start.line) == ("GG101", 35)
    fix = next(x for x in f.fixes if x.preferred)
    assert fix.title.render() == "Recompute `fake, g_loss` before this backward (a fresh graph)"
    assert all(".detach()" not in e.new_text for e in fix.edits)


def test_an_info_tuple_that_may_be_floats_on_one_path_stays_quiet():
    # DI-engine's PPO: ``ppo_info`` from a known helper (``.item()`` floats under
    # no_grad) on one branch, from one not known on another; logged through max()
    program = """\
        from collections import namedtuple

        import torch
        from fastloss import fast_loss

        Info = namedtuple("Info", ["kl"])


        def slow_loss(out):
            with torch.no_grad():
                kl = out.mean().item()
            return out.pow(2).mean(), Info(kl)


        def learn(model, opt, batches, fast):
            infos = []
            for x in batches:
                out = model(x)
                if fast:
                    loss, info = fast_loss(out)
                else:
                    loss, info = slow_loss(out)
                opt.zero_grad()
                loss.backward()
                opt.step()
                infos.append({"loss": loss.item(), "kl": max(info.kl, 0.0)})
            return infos


        net = torch.nn.Linear(4, 4)
        learn(net, torch.optim.SGD(net.parameters(), lr=0.1), [torch.randn(2, 4)] * 3, True)
        """
    assert _found(program) == []
    assert _found(program.replace("max(info.kl, 0.0)", "info.kl")) == []
    # the loss itself, with its graph: reported
    assert [c for c, _, _ in _found(program.replace('"loss": loss.item()', '"loss": loss'))
            ] == ["GG301"]


def test_detach_of_an_object_that_holds_no_graph_is_not_a_discarded_tensor():
    # deepspeed's weakref.finalize, stanza's io.TextIOWrapper: detach() unregisters or
    # unhooks, and its result is meant to be dropped
    assert _found("""\
        import io
        import sys
        import weakref

        import torch


        def report(counts):
            out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8")
            print(counts, file=out)
            out.detach()


        def watch(registry, t: torch.Tensor):
            finalizer = registry.pop(t.data_ptr(), None)
            if finalizer is not None:
                finalizer.detach()
            registry[t.data_ptr()] = weakref.finalize(t, registry.pop, t.data_ptr(), None)
        """) == []
    # a tensor's: reported
    assert [c for c, _, _ in _found("""\
        import torch

        net = torch.nn.Linear(2, 2)
        h = net(torch.randn(1, 2))
        h.detach()
        """)] == ["GG104"]


def test_a_loop_counter_is_past_its_start_after_the_first_iteration():
    # cherry-rl's PPO tests: the first epoch reuses the rollout's log-probs, every later
    # one recomputes them under ``if epoch > 0:``
    program = """\
        import torch


        def train(policy, states, actions, old_log_probs, advantages, epochs=4):
            opt = torch.optim.Adam(policy.parameters())
            new_log_probs = torch.distributions.Normal(policy(states), 1.0).log_prob(actions)
            for epoch in range(epochs):
                if epoch > 0:
                    dist = torch.distributions.Normal(policy(states), 1.0)
                    new_log_probs = dist.log_prob(actions)
                loss = -((new_log_probs - old_log_probs).exp() * advantages).mean()
                opt.zero_grad()
                loss.backward()
                opt.step()
        """
    assert _found(program) == []
    for test in ("epoch != 0", "epoch >= 1", "not epoch == 0"):
        assert _found(program.replace("epoch > 0", test)) == [], test
    # recomputed from the third epoch on: the second walks the freed graph
    assert [c for c, _, _ in _found(program.replace("epoch > 0", "epoch > 1"))] == ["GG103"]
    # the index of enumerate counts the same way
    assert _found(program.replace("for epoch in range(epochs):",
                                  "for epoch, _ in enumerate(range(epochs)):")) == []


def test_the_eval_fix_never_turns_grad_off_for_a_function_that_also_trains():
    # synthcity's fit: each epoch trains, then validates after model.eval()
    program = """\
        import torch
        import torch.nn as nn


        def fit(model, train_batches, val_batches, epochs=3):
            optimizer = torch.optim.Adam(model.parameters())
            for epoch in range(epochs):
                model.train()
                for xb, tb in train_batches:
                    optimizer.zero_grad()
                    loss = ((model(xb) - tb) ** 2).mean()
                    loss.backward()
                    optimizer.step()
                model.eval()
                valid_loss = 0
                for xb, tb in val_batches:
                    valid_loss += ((model(xb) - tb) ** 2).mean()
                print(valid_loss.item())


        fit(nn.Linear(4, 1), [(torch.randn(2, 4), torch.randn(2, 1))] * 2,
            [(torch.randn(2, 4), torch.randn(2, 1))] * 2)
        """
    result = analyze(textwrap.dedent(program))
    [f] = result.findings
    assert (f.code, f.span.start.line) == ("GG303", 17)
    assert [x.title.render() for x in f.fixes] == [
        "Accumulate `((model(xb) - tb) ** 2).mean()` without its graph (.detach())"]


def test_a_list_of_dicts_of_known_keys_keeps_each_key_apart():
    # cherry-rl's spinning-up tests: one rollout entry per step, the actor's log-prob and
    # the critic's value in separate keys, each loss over one key
    program = """\
        import torch
        import torch.nn as nn


        def update(actor: nn.Module, critic: nn.Module, states, returns, advantages):
            actor_opt = torch.optim.Adam(actor.parameters())
            critic_opt = torch.optim.Adam(critic.parameters())
            D = []
            for state in states:
                D.append({"log_prob": actor(state), "value": critic(state)})
            batch = {k: torch.cat([t[k] for t in D], dim=0) for k in D[0].keys()}
            policy_loss = -(batch["log_prob"] * advantages).mean()
            actor_opt.zero_grad()
            policy_loss.backward()
            actor_opt.step()
            value_loss = (batch["value"] - returns).pow(2).mean()
            critic_opt.zero_grad()
            value_loss.backward()
            critic_opt.step()
        """
    assert _found(program) == []
    # both losses over the actor's entry: the second walks the freed graph
    assert [(c, line) for c, line, _ in _found(program.replace(
        '(batch["value"] - returns)', '(batch["log_prob"] - returns)'))] == [("GG101", 18)]


def test_an_object_built_by_an_unknown_base_holds_its_arguments_graphs():
    # cherry-rl: ``class Normal(torch.distributions.Normal)``, whose inherited
    # ``rsample()`` keeps the graph of the mean it was built from
    program = """\
        import torch as th
        import torch.nn as nn


        class Normal(th.distributions.Normal):
            def entropy(self):
                return super().entropy().sum(-1)


        class TanhNormal:
            def __init__(self, mean, std):
                self.normal = Normal(mean, std)

            def rsample(self):
                return th.tanh(self.normal.rsample())


        class Policy(nn.Module):
            def __init__(self):
                super().__init__()
                self.mean = nn.Linear(3, 2)

            def forward(self, state):
                return TanhNormal(self.mean(state), th.ones(2))


        policy, qf = Policy(), nn.Linear(5, 1)
        policy_opt = th.optim.Adam(policy.parameters())
        qf_opt = th.optim.Adam(qf.parameters())  # (its own step, elsewhere)
        for state in [th.randn(4, 3)] * 3:
            actions = policy(state).rsample()
            policy_loss = -qf(th.cat([state, actions], dim=1)).mean()
            policy_opt.zero_grad()
            policy_loss.backward()
            policy_opt.step()
        """
    assert _found(program) == []
    # sampled without a graph: the policy does not train
    assert [c for c, _, _ in _found(program.replace(
        "th.tanh(self.normal.rsample())", "th.tanh(self.normal.rsample().detach())"))
            ] == ["GG402"]


def test_an_accumulated_graph_that_saves_no_tensor_keeps_nothing_alive():
    # diffusers attend-and-excite: each latent is a view of a fresh leaf minus a step
    # along a gradient autograd.grad returned without create_graph; the UNet's graph
    # hangs from ``loss`` and autograd.grad freed it
    program = """\
        import torch


        @torch.no_grad()
        def denoise(unet, latents, timesteps, step_size=20.0):
            for t in timesteps:
                with torch.enable_grad():
                    latents = latents.clone().detach().requires_grad_(True)
                    updated = []
                    for latent in latents:
                        latent = latent.unsqueeze(0)
                        loss = unet(latent, t).pow(2).mean()
                        grad = torch.autograd.grad(loss, [latent])[0]
                        latent = latent - step_size * grad
                        updated.append(latent)
                    latents = torch.cat(updated, dim=0)
                latents = unet(latents, t)
            return latents
        """
    assert _found(program) == []
    # exp saves its result for backward: each iteration's result stays alive
    assert _found(program.replace("latent = latent - step_size",
                                  "latent = latent.exp() - step_size")) == [
        ("GG301", 15, "`updated` accumulates `latent` with its autograd graph: every "
                      "iteration's graph stays in memory")]


def test_a_float_default_decides_a_comparison_of_the_parameter():
    # lerobot TD-MPC: in-place exploration noise on the saved tanh output only when
    # ``std > 0``; the caller that trains passes the default 0.0, the one that passes a
    # noise scale runs under no_grad
    program = """\
        import torch
        import torch.nn as nn


        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self._pi = nn.Linear(8, 2)

            def pi(self, z, std: float = 0.0):
                action = torch.tanh(self._pi(z))
                if std > -0.0:
                    action += torch.randn_like(action) * std
                return action


        class Policy(nn.Module):
            def __init__(self):
                super().__init__()
                self.model = Model()

            @torch.no_grad()
            def plan(self, z):
                return self.model.pi(z, 0.05)

            def forward(self, z, target):
                z = z.detach()
                return (self.model.pi(z[:-1]) - target).pow(2).mean()
        """
    assert _found(program) == []
    # trained with noise: tanh's saved result is changed before the backward
    assert _found(program.replace("self.model.pi(z[:-1])", "self.model.pi(z[:-1], 1e-1)")) == [
        ("GG202", 13, "In-place change of `action`, which `torch.tanh(self._pi(z))` (line 11) "
                      "saved for backward")]


def test_a_rollout_buffer_emptied_where_the_update_runs_holds_no_stale_graph():
    # cherry-rl's spinning-up tests (REINFORCE / actor-critic): the update runs at the end
    # of an episode and empties the buffer; on the paths where it did not run, the buffer's
    # graphs are neither freed nor built with parameters the step has changed since
    program = """\
        import torch


        def train(env, actor, critic, steps, batch_size):
            actor_opt = torch.optim.Adam(actor.parameters())
            state, D = env.reset(), []
            for step in range(steps):
                log_prob = actor(state)
                state, reward, done = env.step(log_prob.detach())
                D.append(ENTRY)
                if done and len(D) >= batch_size:
                    batch = BATCH
                    D = []
                    policy_loss = -(LOG_PROB * reward).mean()
                    actor_opt.zero_grad()
                    policy_loss.backward()
                    actor_opt.step()
        """
    tensors = program.replace("ENTRY", "log_prob").replace("BATCH", "torch.cat(D)").replace(
        "LOG_PROB", "batch")
    dicts = program.replace("ENTRY", "{'log_prob': log_prob, 'ret': torch.ones(1)}").replace(
        "BATCH", "{k: torch.cat([t[k] for t in D]) for k in D[0].keys()}").replace(
        "LOG_PROB", "batch['log_prob']")
    for text in (tensors, dicts):
        assert _found(text) == []
        # never emptied: the next update walks the entries it already backpropagated
        assert _found(text.replace("  D = []\n", "  pass\n")) == [
            ("GG102", 16, "`policy_loss` reaches the previous iteration's graph through `D`, "
                          "which the backward on line 16 freed in that iteration")]


def test_keys_a_loop_stores_in_a_lists_dicts_reach_each_element():
    # cherry-rl spinning-up VPG: advantages stored into each transition dict under
    # no_grad (``for t in reversed(D): t["advantage"] = ...``), then one batch per key:
    # the policy loss reads the actor's entries, the value loss the critic's
    program = """\
        import torch
        import torch.nn as nn


        class ActorCritic(nn.Module):
            def __init__(self):
                super().__init__()
                self.actor = nn.Linear(3, 1)
                self.critic = nn.Linear(3, 1)

            def forward(self, state):
                return torch.distributions.Normal(self.actor(state), 1.0), self.critic(state)


        agent = ActorCritic()


        def train(agent, env, actor_opt, critic_opt):
            state, D = env.reset(), []
            for step in range(100):
                policy, value = agent(state)
                action = policy.sample()
                log_prob = policy.log_prob(action)
                state, reward, done = env.step(action)
                D.append({'reward': torch.tensor([reward]), 'log_prob': log_prob, 'value': value})
                if done:
                    with torch.no_grad():
                        for t in reversed(D):
                            t['advantage'] = t['reward'] - t['value']
                    batch = {k: torch.cat([t[k] for t in D]) for k in D[0].keys()}
                    D = []
                    policy_loss = -(batch['log_prob'] * batch['advantage']).mean()
                    actor_opt.zero_grad()
                    policy_loss.backward()
                    actor_opt.step()
                    value_loss = (batch['value'] - batch['reward']).pow(2).mean()
                    critic_opt.zero_grad()
                    value_loss.backward()
                    critic_opt.step()


        train(agent, None, torch.optim.Adam(agent.actor.parameters()),
              torch.optim.Adam(agent.critic.parameters()))
        """
    assert _found(program) == []
    # a key given the actor's graph: the value loss walks what the policy's backward freed
    assert _found(program.replace(
        "\n                    batch = {", "\n                    for t in D:\n"
        "                        t['reward'] = t['reward'] + t['log_prob']\n"
        "                    batch = {")) == [
        ("GG101", 40, "`value_loss` is backpropagated through the graph of `log_prob` (built on "
                      "line 23), which the backward on line 36 already freed")]


def test_hasattr_of_an_object_whose_class_defines_the_name_is_true():
    # spikingjelly's reset_net(): each neuron with a reset() forgets its membrane potential
    program = """\
        import torch
        import torch.nn as nn


        class LIF(nn.Module):
            def __init__(self):
                super().__init__()
                self.v = 0.0

            def forward(self, x):
                self.v = self.v * 0.5 + x
                return torch.sigmoid(self.v)

            def reset(self):
                self.v = 0.0


        def reset_net(net):
            for m in net.modules():
                if hasattr(m, "reset"):
                    m.reset()


        net = nn.Sequential(nn.Linear(4, 4), LIF())
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for x in [torch.randn(2, 4)] * 3:
            loss = net(x).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            reset_net(net)
        """
    assert _found(program) == []
    # no class has the method asked for: the potential may keep the last batch's graph
    assert _found(program.replace('hasattr(m, "reset")', 'hasattr(m, "rest")')) == [
        ("GG102", 29, "`loss` reaches the previous iteration's graph through `net[1].v`, which "
                      "the backward on line 29 freed in that iteration")]


def test_the_elements_of_a_parameter_list_are_its_parameters():
    # Kendall's uncertainty weighting: one learnable log-variance per task
    program = """\
        import torch
        import torch.nn as nn


        class Weighting(nn.Module):
            def __init__(self, n_tasks=2):
                super().__init__()
                self.log_vars = nn.ParameterList(nn.Parameter(torch.zeros(1))
                                                 for _ in range(n_tasks))

            def forward(self, task_losses):
                log_vars = torch.cat([lv for lv in self.log_vars])
                return (torch.exp(-log_vars) * torch.stack(task_losses) + log_vars).sum()


        model, weighting = nn.Linear(4, 2), Weighting()
        optimizer = torch.optim.Adam(model.parameters())
        weight_optimizer = torch.optim.Adam(weighting.parameters())
        for x in [torch.randn(3, 4)] * 3:
            out = model(x)
            loss = weighting([out[:, 0].mean(), out[:, 1].pow(2).mean()])
            optimizer.zero_grad()
            weight_optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            weight_optimizer.step()
        """
    assert _found(program) == []
    # torch.Tensor() of a list copies the values into a new tensor: no graph to them
    [(code, line, message)] = _found(program.replace("torch.cat([lv", "torch.Tensor([lv"))
    assert (code, line) == ("GG402", 12)
    assert message.startswith("`torch.Tensor([lv for lv in self.log_v...` cuts `weighting`")


def test_as_tensor_of_a_tensor_is_that_tensor():
    program = """\
        import torch

        net = torch.nn.Linear(3, 1)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for x in [torch.randn(2, 3)] * 3:
            out = torch.as_tensor(net(x))
            opt.zero_grad()
            out.sum().backward()
            opt.step()
        """
    assert _found(program) == []
    # of a list of tensors: a new tensor of their values, with no graph
    assert [c for c, _, _ in _found(program.replace("torch.as_tensor(net(x))",
                                                   "torch.as_tensor([net(x)])"))] == ["GG401"]


def test_a_function_decorated_with_enable_grad_builds_graphs_under_no_grad():
    # Lightning's linear-probe callback: fitted at validation, which runs under no_grad
    program = """\
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        @torch.enable_grad()
        def fit_probe(feats, labels, steps=5):
            layer = nn.Linear(feats.shape[1], 3)
            opt = torch.optim.SGD(layer.parameters(), lr=0.5)
            for _ in range(steps):
                loss = F.cross_entropy(layer(feats), labels)
                opt.zero_grad()
                loss.backward()
                opt.step()


        encoder = nn.Linear(8, 4)
        with torch.no_grad():
            fit_probe(encoder(torch.randn(6, 8)), torch.randint(0, 3, (6,)))
        """
    assert _found(program) == []
    assert [c for c, _, _ in _found(program.replace("        @torch.enable_grad()\n", ""))
            ] == ["GG401"]


def test_a_dict_method_called_on_a_models_output_makes_it_a_dict():
    # pyhealth: models return {"y_prob": ..., "y_true": ..., "embed": ...}
    program = """\
        import torch
        from torch import nn


        class Calibrated(nn.Module):
            def __init__(self, model, proj):
                super().__init__()
                self.model = model
                self.model.eval()
                self.proj = proj

            def forward(self, **kwargs):
                ret = self.model(embed=True, **kwargs)
                x_pred = self.proj(ret.pop("embed"))
                ret["y_prob"] = torch.softmax(x_pred, dim=-1)
                return ret
        """
    assert _found(program) == []


def test_a_negated_number_too_large_to_follow_is_a_number():
    # sentence-transformers: ``best_score = -9999999`` and ``-1e30`` masks
    program = """\
        import torch

        best, low = -9999999, -1e30
        net = torch.nn.Linear(2, 1)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for x in [torch.randn(3, 2)] * 3:
            loss = net(x).clamp(min=low).sum()
            if loss > best:
                best = loss
            opt.zero_grad()
            loss.backward()
            opt.step()
        """
    assert _found(program) == []


def test_a_tensor_handed_to_unknown_code_with_graphs_may_get_one():
    # deepinv's tiling: ``strategy.reduce_patches(out, outputs)`` writes the processed
    # patches into the zeros buffer in place (CopySlices gives it their graph)
    program = """\
        import torch


        def check_grads(strategy, denoiser, x):
            x = x.detach().clone().requires_grad_(True)
            processed = [denoiser(p) for p in strategy.patches(x)]
            out = torch.zeros_like(x)
            strategy.reduce_patches(out, processed)
            loss = out.sum()
            loss.backward()
            return x.grad
        """
    assert _found(program) == []
    # nothing handed over with it: the buffer has no graph, the backward raises
    assert [c for c, _, _ in _found(program.replace("strategy.reduce_patches(out, processed)",
                                                   "strategy.reduce_patches(out)"))] == ["GG401"]


def test_a_method_run_not_followed_may_set_what_it_assigns_on_its_object():
    # pykan's MultKAN.attribute(l): starts with ``self.attribute()``, which refreshes the
    # scores from this iteration's forward, then reads them
    program = """\
        import torch
        from torch import nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 3)

            def forward(self, x):
                y = self.lin(x)
                self.act_scale = y.std(dim=0)
                return y

            def attribute(self, l=None):
                if l is not None:
                    self.attribute()
                    out = self.scores[l]
                else:
                    out = torch.ones(3)
                self.scores = [self.act_scale * out]
                return self.scores[0]

            def fit(self, x, y, steps):
                for _ in range(steps):
                    pred = self(x)
                    score = self.attribute(0)
                    loss = ((pred - y) ** 2).mean() + score.sum()
                    loss.backward()
        """
    assert _found(program) == []
    # no refresh: the scores are the previous iteration's, whose graph was freed
    [(code, line, _)] = _found(program.replace("  self.attribute()\n", "  pass\n"))
    assert (code, line) == ("GG102", 29)


def test_a_lightning_modules_predict_step_runs_without_grad():
    # neuralprophet: a quantile fix-up in place only in predict mode, which only
    # predict_step asks for; Lightning runs it under inference_mode (and training_step
    # reaches forward, through self(x), with predict_mode False)
    program = """\
        import torch
        import pytorch_lightning as pl


        class Net(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(4, 3)

            def quantiles(self, diffs, predict_mode=False):
                upper = diffs[:, 1:]
                if predict_mode:
                    upper[:, 0] = torch.max(torch.tensor(0.0), upper[:, 0])
                return torch.cat([diffs[:, :1], upper + diffs[:, :1].detach()], dim=1)

            def forward(self, x, predict_mode=False):
                return self.quantiles(self.lin(x), predict_mode)

            def training_step(self, batch, batch_idx):
                x, y = batch
                return ((self(x) - y) ** 2).mean()

            def predict_step(self, batch, batch_idx):
                x, _ = batch
                return self(x, predict_mode=True)
        """
    assert _found(program) == []
    # a plain nn.Module's predict_step is an ordinary method: its in-place write is on a
    # tensor torch.max saved
    plain = program.replace("import pytorch_lightning as pl", "import torch.nn as nn").replace(
        "pl.LightningModule", "nn.Module")
    assert [(c, line) for c, line, _ in _found(plain)] == [("GG202", 13)]


def test_a_short_loop_that_branches_on_its_index_runs_pass_by_pass():
    # "Making Better Mistakes" hierarchical cross-entropy: the leaf level takes the
    # softmax output itself, and the masked write changes it in place
    program = """\
        import torch
        import torch.nn.functional as F

        net = torch.nn.Linear(10, 6)
        maps = [torch.eye(6), torch.ones(6, 6)]
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        for x in [torch.randn(4, 10)] * 3:
            probs = F.softmax(net(x), dim=1)
            loss = 0.0
            for level in range(2):
                if level == 0:
                    num = probs.clone()
                else:
                    num = probs @ maps[level]
                idx = num != 0
                num[idx] = -torch.log(num[idx])
                loss = loss + num.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """
    assert _found(program) == []
    [(code, line, message)] = _found(program.replace("num = probs.clone()", "num = probs"))
    assert (code, line) == ("GG202", 16)
    assert message == ("In-place change of `num`, which `F.softmax(net(x), dim=1)` (line 8) "
                       "saved for backward")


def test_a_torch_function_saves_what_its_op_saves():
    # agilerl's ILQL: ``weights[i] += torch.scatter(weights[i], 0, index, src)``: scatter's
    # backward needs only its index (derivatives.yaml), as the Tensor method's does
    program = """\
        import torch

        net = torch.nn.Linear(4, 4)
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        idx = torch.tensor([[0, 1, 2, 3]])
        for _ in range(3):
            h = net(torch.randn(1, 4))
            out = torch.scatter(h, 1, idx, torch.ones(1, 4))
            h.mul_(2)
            loss = out.sum() + h.sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
        """
    assert _found(program) == []
    # pow saves its input: the in-place change breaks its backward
    assert _found(program.replace("torch.scatter(h, 1, idx, torch.ones(1, 4))",
                                  "torch.pow(h, 2)")) == [
        ("GG202", 9, "In-place change of `h`, which `torch.pow(h, 2)` (line 8) saved for "
                     "backward")]


def test_writing_a_parameter_through_data_cuts_no_graph():
    # genrl's BayesianLinear.reset_parameters: ``self.w_mu.data.normal_(0, 0.1)`` initialises
    # the parameter; only a ``.data`` read into a computation cuts a graph (GG402's cuts)
    import libcst as cst

    from gradguard.analysis.interp import Interpreter

    def cuts(body):
        interp = Interpreter(cst.parse_module(textwrap.dedent("""\
            import torch
            layer = torch.nn.Linear(4, 4)
            """) + body))
        interp.run_module()
        return [cst.Module([]).code_for_node(c.node) for c, _ in interp.cut_log]

    assert cuts("layer.weight.data.normal_(0, 0.1)\n") == []
    assert cuts("w = layer.weight.data * 2\n") == ["layer.weight.data"]


def test_type_with_a_dtype_is_a_conversion_and_without_one_a_string():
    # predicted labels (argmax: no graph) converted with .type(torch.float32) and given to
    # the loss: torch raises "element 0 of tensors does not require grad"
    program = """import torch
from torch import nn

model = nn.Linear(2, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(8, 2), torch.randint(0, 4, (8,))
for epoch in range(3):
    preds = torch.softmax(model(x), dim=1).argmax(dim=1).type(torch.float32)
    loss = nn.functional.mse_loss(preds, y.type(torch.float32))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""
    assert [f[:2] for f in _found(program)] == [("GG401", 11)]
    assert _found(program.replace(".argmax(dim=1)", "[:, 0]")) == []
    # x.type() names its type: no tensor, no graph
    assert _found("import torch\nw = torch.ones(2, requires_grad=True)\nname = (w * 2).type()\n"
                  "print(name.upper())\n") == []


FORCES = """import torch
import torch.nn as nn


class Forces(nn.Module):
    def __init__(self):
        super().__init__()
        self.energy = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.create_graph = True

    def forward(self, pos):
        pos = pos.requires_grad_(True)
        e = self.energy(pos).sum()
        return -torch.autograd.grad(e, pos, create_graph=self.create_graph)[0]


model = Forces()
opt = torch.optim.Adam(model.parameters())
history = []
for step in range(3):
    model.create_graph = True
    loss = model(torch.randn(5, 3)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.create_graph = False
    history.append(model(torch.randn(5, 3)))
"""


def test_create_graph_given_by_a_value_known_false_makes_gradients_without_a_graph():
    # ``create_graph=self.create_graph`` with the attribute set False before the call: the
    # forces kept for validation hold no graph; with it left True they hold the energy's
    assert analyze(FORCES).findings == ()
    assert [(f.code, f.span.start.line) for f in analyze(
        FORCES.replace("    model.create_graph = False\n", "")).findings] == [("GG301", 26)]


HOOKED = """import torch
from functools import partial

net = torch.nn.Linear(4, 4)
opt = torch.optim.SGD(net.parameters(), lr=0.1)


def replay(grad, inputs):
    with torch.enable_grad():
        (net(inputs) * grad).sum().backward()
    return grad


for step in range(3):
    x = torch.randn(2, 4)
    with torch.no_grad():
        reps = net(x)
    reps = reps.detach().requires_grad_()
    loss = reps.pow(2).sum()
    loss.register_hook(partial(replay, inputs=x))
    opt.zero_grad()
    loss.backward()
    opt.step()
"""


def test_a_backward_through_a_tensor_with_a_hook_of_the_users_may_train_anything():
    # GradCache: the loss is a new leaf, and its hook backpropagates the model itself:
    # which parameters get gradients is the hook's business, so GG402 stays quiet; without
    # the hook the model never trains from this loss
    assert analyze(HOOKED).findings == ()
    assert [(f.code, f.span.start.line) for f in analyze(
        HOOKED.replace("    loss.register_hook(partial(replay, inputs=x))\n", "")).findings] == [
        ("GG402", 22)]


BY_NAME = """import torch
import torch.nn as nn


class Critic(nn.Module):
    def __init__(self, features_extractor):
        super().__init__()
        self.features_extractor = features_extractor
        self.q = nn.Linear(8, 1)

    def forward(self, x):
        return self.q(self.features_extractor(x))


shared = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 8))
actor, critic = nn.Sequential(shared, nn.Linear(8, 2)), Critic(shared)
actor_opt = torch.optim.Adam(actor.parameters())
critic_opt = torch.optim.Adam([p for n, p in critic.named_parameters() if "features_extractor" not in n])
for step in range(3):
    obs = torch.randn(5, 4)
    action = actor(obs)
    critic_loss = critic(obs).pow(2).mean()
    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()
    actor_loss = action.pow(2).mean()
    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()
"""


def test_an_optimizer_over_parameters_picked_by_name_steps_an_unknown_subset():
    # stable-baselines3's SAC leaves the shared features extractor out of the critic's
    # optimizer by name: its step does not change what the actor's graph saved; given
    # every critic parameter it does, and the actor's backward then fails
    assert analyze(BY_NAME).findings == ()
    assert [(f.code, f.span.start.line) for f in analyze(BY_NAME.replace(
        '[p for n, p in critic.named_parameters() if "features_extractor" not in n]',
        "critic.parameters()")).findings] == [("GG201", 28)]


AUTOCAST_INPLACE = """import torch

rot = torch.nn.Parameter(torch.zeros(2, 3, 3))
opt = torch.optim.Adam([rot])
for step in range(3):
    poses = torch.randn(2, 3, 4)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        poses[..., :3] = rot @ poses[..., :3]
    loss = poses.float().pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
"""

AUTOCAST_STEP = """import torch
net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x = torch.randn(5, 4)
with torch.autocast("cpu", dtype=torch.bfloat16):
    out = net(x)
out.float().pow(2).mean().backward(retain_graph=True)
opt.step()
out.float().abs().mean().backward()
print("ok")
"""


def test_autocast_ops_save_casted_copies_that_in_place_changes_do_not_touch():
    # in an autocast region a matmul (or nn.Linear) saves bfloat16 copies of its inputs
    # and weights: writing the float32 input in place, or stepping the float32 weights,
    # leaves them as they were (torch 2.13 runs both programs; docs/source/amp.md)
    assert analyze(AUTOCAST_INPLACE).findings == ()
    assert analyze(AUTOCAST_STEP).findings == ()
    assert [(f.code, f.span.start.line) for f in analyze(AUTOCAST_INPLACE.replace(
        'torch.autocast("cpu", dtype=torch.bfloat16)', 'torch.autocast("cpu", enabled=False)')
    ).findings] == [("GG202", 8)]
    assert [(f.code, f.span.start.line) for f in analyze(AUTOCAST_STEP.replace(
        'with torch.autocast("cpu", dtype=torch.bfloat16):\n    out = net(x)',
        "out = net(x)")).findings] == [("GG201", 8)]
